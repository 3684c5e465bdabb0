import MockStoreSQLite
import StoreWire

/// The mock store's state in SQLite: every transaction (finished or not), the change log that a future
/// updates feed reads, the counters and the runtime settings.
///
/// One connection, used by one thread at a time: the owner keeps the store behind a lock. Every change is
/// one SQLite transaction, so a crash leaves either all of it or none of it.
///
/// This file holds the transactions (insert, read, finish); the parts, one job each: `+ChangeLog` (the change log
/// and the updates feed), `+Sandbox` (the controls' changes to transactions, the app transaction), `+Customers`,
/// `+Subscriptions` (their states and the virtual clock), `+Notifications` and `+NotificationQueue`,
/// `+Failures` (simulated StoreKit errors), `+Consumption`, `+Settings`, `+Rows` (a row as a transaction) and
/// `+Schema` (migrating older files).
public final class TransactionStore: GroupCommitStore {
    /// The schema this code writes and reads (`PRAGMA user_version`). Version 1 to 3 files are migrated.
    static let schemaVersion: Int64 = 4

    /// The connection, shared through ``GroupCommit``.
    public let database: SQLiteDatabase
    private var statements: [String: SQLiteStatement] = [:]
    /// Called when a runtime setting or a simulated failure is written (or may have been undone): the owner's
    /// caches of them are stale.
    var settingsMayHaveChanged: (@Sendable () -> Void)?
    /// Signs a notification recorded unsigned (``DeferredNotification``) when it is first read.
    var sealNotification: (@Sendable (String) throws -> String)?
    /// The customer the calls act for (``TransactionStore+Customers``): set by the store before each call's work,
    /// from the request or from the transaction it names.
    var actingFor = CustomerContext()
    /// Told which customer the calls act for, for the signing code (``CustomerAppTransactions``).
    var appTransactions: CustomerAppTransactions?

    /// The database file.
    public var path: String { database.path }

    /// Opens the store at `path`, creating the file and its tables if needed.
    ///
    /// Throws an ``SQLiteError`` if the file cannot be opened, is not a database, or was written by a newer
    /// schema.
    public init(path: String) throws {
        database = try SQLiteDatabase(path: path)
        try migrate()
    }

    /// A batch was rolled back: a setting written in it may be gone.
    public func rolledBack() {
        settingsMayHaveChanged?()
    }

    /// Closes the database (checkpointing the WAL). Using the store afterwards throws.
    public func close() throws {
        statements.removeAll()
        try database.close()
    }

    // MARK: Transactions

    /// Records a new transaction, numbering it from the serial counter and `ids`, and logs its creation.
    @discardableResult
    public func insert(_ new: NewTransaction, ids: any TransactionIDSource) throws -> StoredTransaction {
        try insert(new, ids: ids) { $0 }
    }

    /// Records a new transaction as ``insert(_:ids:)`` does, then calls `confirm` with it before committing:
    /// if `confirm` throws, nothing is recorded (and the serial number is not used up).
    public func insert<Result>(
        _ new: NewTransaction, ids: any TransactionIDSource, confirm: (StoredTransaction) throws -> Result
    ) throws -> Result {
        try database.inTransaction {
            let serial = try nextSerial()
            let id = ids.transactionID(forSerial: serial)
            let sequence = try logChange(.created, transactionId: id, date: new.purchaseDate)
            var stored = StoredTransaction(
                id: id, serial: serial, originalTransactionId: new.subscription?.originalTransactionId ?? id,
                productId: new.productId,
                productType: new.productType, quantity: new.quantity, price: new.price, currency: new.currency,
                storefront: new.storefront, storefrontId: new.storefrontId, purchaseDate: new.purchaseDate,
                originalPurchaseDate: new.subscription?.originalPurchaseDate ?? new.purchaseDate,
                appAccountToken: new.appAccountToken,
                transactionReason: new.subscription?.transactionReason ?? .purchase,
                inAppOwnershipType: new.inAppOwnershipType,
                origin: new.origin,
                status: new.status, isFinished: false, finishedDate: nil, revocationDate: nil, revocationReason: nil,
                revocationType: nil, revocationPercentage: nil, version: 1, changeSequence: sequence,
                orderId: Self.orderId(forSerial: serial), pendingReason: new.pendingReason, refundRequest: nil,
                customerId: actingFor.id)
            stored.subscription = new.subscription.map { Self.numbered($0.fields, serial: serial) }
            try statement(Self.insertSQL).run(
                [
                    .text(stored.id), .integer(stored.serial), .text(stored.originalTransactionId),
                    .text(stored.productId), .text(stored.productType.rawValue), .integer(Int64(stored.quantity)),
                    .integer(stored.price), .text(stored.currency), .text(stored.storefront),
                    .text(stored.storefrontId),
                    .integer(stored.purchaseDate), .integer(stored.originalPurchaseDate),
                    .optional(stored.appAccountToken), .text(stored.transactionReason.rawValue),
                    .text(stored.inAppOwnershipType.rawValue), .text(stored.origin.rawValue),
                    .text(stored.status.rawValue),
                    .integer(stored.version), .integer(stored.changeSequence), .text(stored.orderId),
                    .optional(stored.pendingReason?.rawValue),
                ] + Self.subscriptionValues(stored.subscription) + [.integer(actingFor.id)])
            return try confirm(stored)
        }
    }

    /// The transaction with this id, whatever its state.
    public func transaction(id: String) throws -> StoredTransaction? {
        try statement("SELECT \(Self.columns) FROM transactions WHERE id = ?1").query([.text(id)], row: Self.row).first
    }

    /// The customer's paid transactions the app has not finished, oldest first.
    public func unfinishedTransactions() throws -> [StoredTransaction] {
        try statement(
            """
            SELECT \(Self.columns) FROM transactions
            WHERE customer_id = ?1 AND finished = 0 AND status = 'purchased' ORDER BY serial
            """
        ).query([.integer(actingFor.id)], row: Self.row)
    }

    /// Every transaction of the customer, oldest first.
    public func allTransactions() throws -> [StoredTransaction] {
        try statement("SELECT \(Self.columns) FROM transactions WHERE customer_id = ?1 ORDER BY serial")
            .query([.integer(actingFor.id)], row: Self.row)
    }

    /// The customer's newest paid, unrevoked transaction for `productId` (to give a non-consumable back, not sell it
    /// twice).
    public func latestActivePurchase(productId: String) throws -> StoredTransaction? {
        try statement(
            """
            SELECT \(Self.columns) FROM transactions
            WHERE customer_id = ?2 AND product_id = ?1 AND status = 'purchased' AND revocation_date IS NULL
            ORDER BY serial DESC LIMIT 1
            """
        ).query([.text(productId), .integer(actingFor.id)], row: Self.row).first
    }

    /// Marks a paid transaction finished. Finishing it again changes nothing and says so.
    public func finish(id: String, at date: Int64) throws -> FinishOutcome {
        try database.inTransaction {
            guard let current = try transaction(id: id), current.status == .purchased else { return .notFound }
            guard !current.isFinished else { return .alreadyFinished }
            let sequence = try logChange(.finished, transactionId: id, date: date)
            try statement(
                """
                UPDATE transactions SET finished = 1, finished_date = ?2, version = version + 1, change_sequence = ?3
                WHERE id = ?1
                """
            ).run([.text(id), .integer(date), .integer(sequence)])
            return .finished
        }
    }

    // MARK: Internals

    func statement(_ sql: String) throws -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        let prepared = try database.prepare(sql)
        statements[sql] = prepared
        return prepared
    }

    private func nextSerial() throws -> Int64 {
        let values = try statement(
            "UPDATE counters SET value = value + 1 WHERE name = 'transaction_serial' RETURNING value"
        ).query { $0.int64(at: 0) }
        guard let serial = values.first else {
            throw SQLiteError(
                code: SQLiteError.corruptCode, message: "the transaction_serial counter is missing",
                operation: "numbering a transaction")
        }
        return serial
    }

    func logChange(_ kind: TransactionChange.Kind, transactionId: String, date: Int64) throws -> Int64 {
        let values = try statement(
            "INSERT INTO transaction_changes (transaction_id, kind, at) VALUES (?1, ?2, ?3) RETURNING sequence"
        ).query([.text(transactionId), .text(kind.rawValue), .integer(date)]) { $0.int64(at: 0) }
        guard let sequence = values.first else {
            throw SQLiteError(
                code: SQLiteError.genericCode, message: "no sequence returned", operation: "logging a change")
        }
        return sequence
    }

    /// The order id of the purchase numbered `serial`: `MOCK` and eight digits, e.g. `MOCK00000001`.
    static func orderId(forSerial serial: Int64) -> String {
        let number = String(serial)
        return "MOCK" + String(repeating: "0", count: max(0, 8 - number.count)) + number
    }

    private static let insertSQL = """
        INSERT INTO transactions (
            id, serial, original_id, product_id, product_type, quantity, price, currency, storefront, storefront_id,
            purchase_date, original_purchase_date, app_account_token, transaction_reason, ownership_type, origin,
            status, version, change_sequence, order_id, pending_reason, \(subscriptionColumns), customer_id
        ) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21,
            ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30)
        """
}
