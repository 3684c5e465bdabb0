import MockStoreSQLite
import StoreWire

/// The mock store's state in SQLite: every transaction (finished or not), the change log that a future
/// updates feed reads, the counters and the runtime settings.
///
/// One connection, used by one thread at a time: the owner keeps the store behind a lock. Every change is
/// one SQLite transaction, so a crash leaves either all of it or none of it.
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

    // MARK: Change log

    /// Changes numbered after `sequence`, in order, at most `limit` of them.
    public func changes(after sequence: Int64, limit: Int = 100) throws -> [TransactionChange] {
        try statement(
            """
            SELECT sequence, transaction_id, kind, at FROM transaction_changes
            WHERE sequence > ?1 ORDER BY sequence LIMIT ?2
            """
        ).query([.integer(sequence), .integer(Int64(limit))]) { row in
            let kindText = row.text(at: 2) ?? ""
            guard let kind = TransactionChange.Kind(rawValue: kindText) else {
                throw SQLiteError(
                    code: SQLiteError.corruptCode, message: "unknown change kind '\(kindText)'",
                    operation: "reading the change log")
            }
            return TransactionChange(
                sequence: row.int64(at: 0), transactionId: row.text(at: 1) ?? "", kind: kind, date: row.int64(at: 3))
        }
    }

    /// The number of the newest change (0 when there is none): the cursor of "now".
    public func latestChangeSequence() throws -> Int64 {
        try statement("SELECT COALESCE(MAX(sequence), 0) FROM transaction_changes").query { $0.int64(at: 0) }.first ?? 0
    }

    // MARK: Settings

    /// A runtime setting (e.g. a storefront chosen by a test control), or `nil` when not set.
    public func setting(_ key: String) throws -> String? {
        try statement("SELECT value FROM settings WHERE key = ?1").query([.text(key)]) { $0.text(at: 0) }.first ?? nil
    }

    /// Sets a runtime setting; `nil` removes it.
    public func setSetting(_ key: String, to value: String?) throws {
        settingsMayHaveChanged?()
        if let value {
            try statement(
                "INSERT INTO settings (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = ?2"
            )
            .run([.text(key), .text(value)])
        } else {
            try statement("DELETE FROM settings WHERE key = ?1").run([.text(key)])
        }
    }

    /// Every runtime setting.
    public func allSettings() throws -> [String: String] {
        let pairs = try statement("SELECT key, value FROM settings ORDER BY key").query { row in
            (row.text(at: 0) ?? "", row.text(at: 1) ?? "")
        }
        return Dictionary(pairs, uniquingKeysWith: { _, last in last })
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

    private func migrate() throws {
        let version = try database.userVersion
        if version == Self.schemaVersion { return }
        guard (0...3).contains(version) else {
            throw SQLiteError(
                code: SQLiteError.genericCode,
                message: "schema version \(version) is not one this mockstore knows (it writes \(Self.schemaVersion))",
                operation: "opening \(database.path)")
        }
        try database.inTransaction {
            // A new file: the current version in one pass (TransactionStore+FreshSchema.swift).
            if version == 0 {
                try FreshSchema.create(in: database)
            } else {
                if version < 2 {
                    try database.execute(Self.version2SQL)
                }
                if version < 3 {
                    try database.execute(Self.version3SQL)
                }
                try database.execute(Self.version4SQL)
            }
        }
    }

    /// The order id of the purchase numbered `serial`: `MOCK` and eight digits, e.g. `MOCK00000001`.
    static func orderId(forSerial serial: Int64) -> String {
        let number = String(serial)
        return "MOCK" + String(repeating: "0", count: max(0, 8 - number.count)) + number
    }

    /// Version 2 (issue 5): order ids, what a pending purchase waits for, refund requests, simulated failures,
    /// consumption information and notifications.
    static let version2SQL = """
        ALTER TABLE transactions ADD COLUMN order_id TEXT;
        ALTER TABLE transactions ADD COLUMN pending_reason TEXT CHECK (pending_reason IN ('askToBuy', 'interrupted'));
        ALTER TABLE transactions ADD COLUMN refund_request TEXT
            CHECK (refund_request IN ('requested', 'declined', 'granted'));
        UPDATE transactions SET order_id = 'MOCK' || printf('%08d', serial);
        UPDATE transactions SET pending_reason = 'askToBuy' WHERE status = 'pending';
        CREATE UNIQUE INDEX transactions_by_order ON transactions (order_id);
        CREATE TABLE simulated_failures (
            api TEXT PRIMARY KEY NOT NULL,
            error TEXT,
            once INTEGER NOT NULL DEFAULT 0 CHECK (once IN (0, 1))
        ) STRICT;
        CREATE TABLE consumption_reports (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            transaction_id TEXT NOT NULL,
            api_version TEXT NOT NULL,
            received_at INTEGER NOT NULL,
            body TEXT NOT NULL
        ) STRICT;
        CREATE TABLE notifications (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            uuid TEXT NOT NULL UNIQUE,
            type TEXT NOT NULL,
            subtype TEXT,
            transaction_id TEXT,
            test_token TEXT UNIQUE,
            signed_payload TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'unsent')),
            next_attempt_at INTEGER
        ) STRICT;
        CREATE INDEX notifications_due ON notifications (status, next_attempt_at);
        CREATE TABLE notification_attempts (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            notification_id INTEGER NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
            at INTEGER NOT NULL,
            result TEXT NOT NULL,
            http_status INTEGER,
            detail TEXT
        ) STRICT;
        CREATE INDEX notification_attempts_by_notification ON notification_attempts (notification_id);
        PRAGMA user_version = 2;
        """

    static let schemaSQL = """
        CREATE TABLE transactions (
            id TEXT PRIMARY KEY NOT NULL,
            serial INTEGER NOT NULL UNIQUE,
            original_id TEXT NOT NULL,
            product_id TEXT NOT NULL,
            product_type TEXT NOT NULL,
            quantity INTEGER NOT NULL CHECK (quantity > 0),
            price INTEGER NOT NULL,
            currency TEXT NOT NULL,
            storefront TEXT NOT NULL,
            storefront_id TEXT NOT NULL,
            purchase_date INTEGER NOT NULL,
            original_purchase_date INTEGER NOT NULL,
            app_account_token TEXT,
            transaction_reason TEXT NOT NULL,
            ownership_type TEXT NOT NULL,
            origin TEXT NOT NULL CHECK (origin IN ('app', 'outside')),
            status TEXT NOT NULL CHECK (status IN ('purchased', 'pending', 'declined')),
            finished INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),
            finished_date INTEGER,
            revocation_date INTEGER,
            revocation_reason INTEGER,
            revocation_type TEXT,
            revocation_percentage INTEGER,
            version INTEGER NOT NULL,
            change_sequence INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX transactions_open ON transactions (finished, status, serial);
        CREATE INDEX transactions_by_product ON transactions (product_id, serial);
        CREATE TABLE transaction_changes (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            transaction_id TEXT NOT NULL
                REFERENCES transactions (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
            kind TEXT NOT NULL,
            at INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX transaction_changes_by_transaction ON transaction_changes (transaction_id);
        CREATE TABLE counters (name TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL) STRICT;
        INSERT INTO counters (name, value) VALUES ('transaction_serial', 0);
        CREATE TABLE settings (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) STRICT;
        PRAGMA user_version = 1;
        """

    private static let insertSQL = """
        INSERT INTO transactions (
            id, serial, original_id, product_id, product_type, quantity, price, currency, storefront, storefront_id,
            purchase_date, original_purchase_date, app_account_token, transaction_reason, ownership_type, origin,
            status, version, change_sequence, order_id, pending_reason, \(subscriptionColumns), customer_id
        ) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21,
            ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30)
        """

    static let columns = """
        id, serial, original_id, product_id, product_type, quantity, price, currency, storefront, storefront_id, \
        purchase_date, original_purchase_date, app_account_token, transaction_reason, ownership_type, origin, \
        status, finished, finished_date, revocation_date, revocation_reason, revocation_type, \
        revocation_percentage, version, change_sequence, order_id, pending_reason, refund_request, \
        \(subscriptionColumns), customer_id
        """

    static func row(_ row: SQLiteStatement) throws -> StoredTransaction {
        let originText = row.text(at: 15) ?? ""
        let statusText = row.text(at: 16) ?? ""
        let origin = StoredTransaction.Origin(rawValue: originText)
        let status = StoredTransaction.Status(rawValue: statusText)
        guard origin.isRecognized, status.isRecognized else {
            throw SQLiteError(
                code: SQLiteError.corruptCode, message: "unknown origin '\(originText)' or status '\(statusText)'",
                operation: "reading a transaction")
        }
        return StoredTransaction(
            id: row.text(at: 0) ?? "", serial: row.int64(at: 1), originalTransactionId: row.text(at: 2) ?? "",
            productId: row.text(at: 3) ?? "", productType: ProductType(rawValue: row.text(at: 4) ?? ""),
            quantity: Int(row.int64(at: 5)),
            price: row.int64(at: 6), currency: row.text(at: 7) ?? "", storefront: row.text(at: 8) ?? "",
            storefrontId: row.text(at: 9) ?? "", purchaseDate: row.int64(at: 10),
            originalPurchaseDate: row.int64(at: 11), appAccountToken: row.text(at: 12),
            transactionReason: TransactionReason(rawValue: row.text(at: 13) ?? ""),
            inAppOwnershipType: InAppOwnershipType(rawValue: row.text(at: 14) ?? ""), origin: origin,
            status: status, isFinished: row.int64(at: 17) != 0, finishedDate: row.optionalInt64(at: 18),
            revocationDate: row.optionalInt64(at: 19),
            revocationReason: row.optionalInt64(at: 20).map { RevocationReason(rawValue: Int($0)) },
            revocationType: row.text(at: 21).map(RevocationType.init(rawValue:)),
            revocationPercentage: row.optionalInt64(at: 22).map { Int($0) },
            version: row.int64(at: 23), changeSequence: row.int64(at: 24),
            orderId: row.text(at: 25) ?? TransactionStore.orderId(forSerial: row.int64(at: 1)),
            pendingReason: row.text(at: 26).map(StoredTransaction.PendingReason.init(rawValue:)),
            refundRequest: row.text(at: 27).map(StoredTransaction.RefundRequest.init(rawValue:)),
            subscription: subscriptionFields(row, from: 28), customerId: row.int64(at: 36))
    }
}
