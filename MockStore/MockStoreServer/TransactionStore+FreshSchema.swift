import MockStoreSQLite

/// A new database's schema in one go: what versions 1, 2 and 3 (``schemaSQL``, ``version2SQL``, ``version3SQL``)
/// leave, written as plain `CREATE` statements. Each `ALTER TABLE` of a migration makes SQLite parse the whole
/// schema again, which was half the time of making the in-memory database of an `--ephemeral` start.
/// `TransactionStoreSchemaTests` checks that both ways give the same schema, statement by statement, and the same rows.
extension TransactionStore {
    /// Schema version 3, for a file that has none yet.
    static let freshSchemaSQL = """
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
            change_sequence INTEGER NOT NULL,
            order_id TEXT,
            pending_reason TEXT CHECK (pending_reason IN ('askToBuy', 'interrupted')),
            refund_request TEXT CHECK (refund_request IN ('requested', 'declined', 'granted')),
            expires_date INTEGER,
            web_order_line_item_id TEXT,
            subscription_group_id TEXT,
            is_upgraded INTEGER NOT NULL DEFAULT 0 CHECK (is_upgraded IN (0, 1)),
            offer_type INTEGER,
            offer_identifier TEXT,
            offer_discount_type TEXT,
            offer_period TEXT
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
        CREATE INDEX transactions_by_original ON transactions (original_id, serial);
        CREATE TABLE subscriptions (
            original_transaction_id TEXT PRIMARY KEY NOT NULL,
            group_id TEXT NOT NULL UNIQUE,
            status INTEGER NOT NULL CHECK (status BETWEEN 1 AND 5),
            next_event_at INTEGER,
            state TEXT NOT NULL
        ) STRICT;
        CREATE INDEX subscriptions_due ON subscriptions (next_event_at);
        CREATE TABLE virtual_clock (id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL) STRICT;
        PRAGMA user_version = 3;
        """

    /// Creates the current schema in `database`, which has none: one pass for a new file, the migrations for an
    /// old one (``migrate()``).
    static func createFreshSchema(in database: SQLiteDatabase) throws {
        try database.execute(freshSchemaSQL)
    }
}
