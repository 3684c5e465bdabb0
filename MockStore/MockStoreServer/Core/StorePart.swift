import Foundation
import MockStoreHTTP
import MockStoreSQLite
import StoreWire

/// One part of the store (its subscriptions, its offers, its Server API, ...): what every part holds, the
/// configuration and the database handle, and the ways of using them they all share. Each part holds besides only
/// the other parts and state it needs; ``MockStore`` makes them and routes requests to them.
protocol StorePart: Sendable {
    var configuration: MockStore.Configuration { get }
    /// The database, shared by concurrent calls through group commit.
    var database: GroupCommit<TransactionStore> { get }
}

extension StorePart {
    /// Runs `body` under the database lock, in the shared transaction of the moment, and returns once that is
    /// committed and, unless `durability` says otherwise, on the disk (``GroupCommit/perform(durability:_:)``);
    /// any error that is not already a ``MockStoreError`` (a failed commit among them) becomes a 500. The body acts
    /// for the customer the request names (``CustomerScope``), the default customer when it names none.
    func withDatabase<Result: Sendable>(
        durability: GroupCommit<TransactionStore>.Durability = .flushed,
        _ body: (inout sending TransactionStore) throws -> Result
    ) throws(MockStoreError) -> Result {
        let named = CustomerScope.name
        do {
            return try database.perform(durability: durability) { database in
                try database.actFor(customerNamed: named)
                return try body(&database)
            }
        } catch let error as MockStoreError {
            throw error
        } catch {
            throw .internalError(error)
        }
    }

    /// Now on the store's clock (the virtual clock), in milliseconds.
    var nowMilliseconds: Int64 { configuration.clock.now().millisecondsSince1970 }

    /// Apple's transaction ids are decimal numbers (`2000000376851165`).
    static func isTransactionId(_ text: String) -> Bool {
        (1...32).contains(text.utf8.count)
            && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    func requireTransactionId(_ id: String) throws(MockStoreError) {
        guard Self.isTransactionId(id) else { throw .invalidTransactionId(id) }
    }

    /// Transaction `id`, whose customer the database acts for from now on (a control given a transaction id acts for
    /// its customer; one naming another customer is refused, 4040010).
    func existing(_ id: String, _ database: TransactionStore) throws -> StoredTransaction {
        guard let transaction = try database.transaction(id: id) else { throw MockStoreError.transactionNotFound }
        try database.adopt(transaction)
        return transaction
    }

    /// Acts for the customer `id` names: any paid transaction of theirs, or their `appTransactionId` (Apple's
    /// `anyTransactionId`, App Store Server API 1.20). An id that is neither is 4040010.
    func actForCustomer(ofAny id: String, _ database: TransactionStore) throws {
        if let appTransactionId = Int64(id), let customer = try database.customer(appTransactionId: appTransactionId) {
            try database.actFor(customerId: customer.id)
        } else {
            _ = try paid(id, database)
        }
    }

    /// A paid transaction (pending and declined purchases do not exist for the Server API), whose customer the
    /// database acts for from now on.
    func paid(_ id: String, _ database: TransactionStore) throws -> StoredTransaction {
        guard let transaction = try database.transaction(id: id), transaction.status == .purchased else {
            throw MockStoreError.transactionNotFound
        }
        // The Server API answers for the customer of the transaction it is given.
        try database.adopt(transaction)
        return transaction
    }
}

/// A part that works with subscriptions, and so with the virtual clock and the lifecycle over it.
protocol SubscriptionStorePart: StorePart {
    var runtime: SubscriptionRuntime { get }
}

extension SubscriptionStorePart {
    /// The lifecycle over the catalogue, at the clock's rate now.
    var subscriptionLifecycle: SubscriptionLifecycle { runtime.timedLifecycle }

    /// The virtual clock every date of the store comes from.
    var virtualClock: VirtualClock { runtime.clock }

    /// Real time (bearer tokens and promotional offer signatures are checked against it too).
    var realClock: any StoreClock { runtime.clock.base }

    /// The lifecycle's answer, its refusals as the store's errors.
    func lifecycleStep(_ body: () throws(SubscriptionLifecycleError) -> SubscriptionStep) throws(MockStoreError)
        -> SubscriptionStep
    {
        do {
            return try body()
        } catch .unknownProduct(let id) {
            throw .invalidProductId(id)
        } catch .otherGroup(let id) {
            throw .conflict(.otherGroup(productId: id))
        } catch {
            throw .conflict(.notInForce)
        }
    }
}
