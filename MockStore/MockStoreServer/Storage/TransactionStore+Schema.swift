import MockStoreSQLite
import StoreWire

/// Opening a file of an older schema: each version's changes, in order, and version 1's tables.
extension TransactionStore {
    func migrate() throws {
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
}
