import Synchronization

/// The app transactions of the customers the database has acted for, and which customer it acts for now: what the
/// signing code reads (a transaction's `appTransactionId`, the app transaction, renewal info), which is given no
/// database. The database sets it under its lock before each call's work (``TransactionStore/actFor(customerNamed:)``),
/// and everything signed is signed inside that work, so "now" is the customer of the call being run.
final class CustomerAppTransactions: Sendable {
    private struct State {
        var records: [Int64: TransactionStore.AppTransactionRecord]
        var current: Int64
        /// Never removed: the default customer always exists.
        let defaultRecord: TransactionStore.AppTransactionRecord
    }

    private let state: Mutex<State>

    /// Knows the default customer's app transaction, and acts for them.
    init(defaultCustomer: TransactionStore.AppTransactionRecord) {
        state = Mutex(
            State(
                records: [CustomerContext.defaultId: defaultCustomer], current: CustomerContext.defaultId,
                defaultRecord: defaultCustomer))
    }

    /// The database acts for `customer` from now on. A customer's app transaction never changes, and row ids are
    /// never reused, so a record once seen is kept.
    func actFor(_ customer: StoreCustomer) {
        state.withLock {
            $0.records[customer.id] = customer.appTransaction
            $0.current = customer.id
        }
    }

    /// Knows `customer`'s app transaction (every customer's is learnt at start, and each new one when added).
    func learn(_ customer: StoreCustomer) {
        state.withLock { $0.records[customer.id] = customer.appTransaction }
    }

    /// The database acts for the default customer from now on.
    func actForDefaultCustomer() {
        state.withLock { $0.current = CustomerContext.defaultId }
    }

    /// The app transaction of the customer acted for now.
    var current: TransactionStore.AppTransactionRecord {
        state.withLock { $0.records[$0.current] ?? $0.defaultRecord }
    }

    /// The app transaction of customer `id`, or of the customer acted for now when the store has not seen `id`.
    func record(for id: Int64) -> TransactionStore.AppTransactionRecord {
        state.withLock { $0.records[id] ?? $0.records[$0.current] ?? $0.defaultRecord }
    }
}
