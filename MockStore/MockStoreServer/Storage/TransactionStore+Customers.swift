import MockStoreSQLite
import StoreWire

/// Customers in SQLite (schema version 4): the `customers` table, the customer of each transaction
/// (`transactions.customer_id`) and of each subscription (`customer_subscriptions`, which replaces version 3's
/// `subscriptions`: a group is unique per customer, no longer in the store). A file made before customers existed
/// holds the default customer's data only, so every row it has is theirs (customer 1).
extension TransactionStore {
    /// Version 4 (issue 27): many customers. SQLite cannot drop version 3's `UNIQUE (group_id)`, so the
    /// subscriptions move to a table of their own.
    static let version4SQL = """
        ALTER TABLE transactions ADD COLUMN customer_id INTEGER NOT NULL DEFAULT 1;
        CREATE INDEX transactions_by_customer ON transactions (customer_id, serial);
        CREATE TABLE customers (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL UNIQUE,
            app_transaction_id INTEGER,
            app_original_purchase_date INTEGER
        ) STRICT;
        INSERT INTO customers (id, name) VALUES (1, 'default');
        CREATE TABLE customer_subscriptions (
            original_transaction_id TEXT PRIMARY KEY NOT NULL,
            customer_id INTEGER NOT NULL,
            group_id TEXT NOT NULL,
            status INTEGER NOT NULL CHECK (status BETWEEN 1 AND 5),
            next_event_at INTEGER,
            state TEXT NOT NULL,
            UNIQUE (customer_id, group_id)
        ) STRICT;
        INSERT INTO customer_subscriptions
            (original_transaction_id, customer_id, group_id, status, next_event_at, state)
            SELECT original_transaction_id, 1, group_id, status, next_event_at, state FROM subscriptions;
        DROP TABLE subscriptions;
        CREATE INDEX customer_subscriptions_due ON customer_subscriptions (next_event_at);
        PRAGMA user_version = 4
        """

    // MARK: The customer in force

    /// Acts for the customer called `name` from now on (the default customer when `nil`), who must exist.
    ///
    /// - Throws: ``MockStoreError`` 404/4040020 for an unknown customer.
    func actFor(customerNamed name: String?) throws {
        guard let name else {
            actingFor = CustomerContext()
            appTransactions?.actForDefaultCustomer()
            return
        }
        // The default customer's row never changes: no query for the device API's commonest case.
        if name == MockCustomerHeader.defaultCustomer {
            actingFor = CustomerContext(id: CustomerContext.defaultId, isNamed: true)
            appTransactions?.actForDefaultCustomer()
            return
        }
        guard let found = try customer(named: name) else { throw MockStoreError.customerNotFound(name) }
        actingFor = CustomerContext(id: found.id, isNamed: true)
        appTransactions?.actFor(found)
    }

    /// Acts for the customer whose transaction `transaction` is: a call about a transaction (the Server API, a
    /// control given its id) answers for its customer.
    ///
    /// - Throws: ``MockStoreError/transactionNotFound`` when the request named another customer: their
    ///   transactions are not this customer's to see or change.
    func adopt(_ transaction: StoredTransaction) throws {
        guard transaction.customerId != actingFor.id else { return }
        if actingFor.isNamed { throw MockStoreError.transactionNotFound }
        try actFor(customerId: transaction.customerId)
    }

    /// Acts for customer `id` (a transaction's, a subscription's when the clock runs it), who must exist.
    func actFor(customerId id: Int64) throws {
        guard let found = try customer(id: id) else { throw MockStoreError.transactionNotFound }
        actingFor = CustomerContext(id: id, isNamed: false)
        appTransactions?.actFor(found)
    }

    /// Acts for `context` again (after a call acted for others on the way, such as the clock's due events).
    func restore(_ context: CustomerContext) throws {
        guard context != actingFor else { return }
        try actFor(customerId: context.id)
        actingFor = context
    }

    // MARK: Customers

    /// The customer called `name`, if there is one.
    func customer(named name: String) throws -> StoreCustomer? {
        try statement("SELECT \(Self.customerColumns) FROM customers WHERE name = ?1")
            .query([.text(name)], row: customerRow).first
    }

    /// The customer with row `id`, if there is one.
    func customer(id: Int64) throws -> StoreCustomer? {
        try statement("SELECT \(Self.customerColumns) FROM customers WHERE id = ?1")
            .query([.integer(id)], row: customerRow).first
    }

    /// The customer with this `appTransactionId`, if there is one.
    func customer(appTransactionId: Int64) throws -> StoreCustomer? {
        let defaultCustomer = try customer(id: CustomerContext.defaultId)
        if defaultCustomer?.appTransaction.id == appTransactionId { return defaultCustomer }
        return try statement("SELECT \(Self.customerColumns) FROM customers WHERE app_transaction_id = ?1")
            .query([.integer(appTransactionId)], row: customerRow).first
    }

    /// Every customer, the default one first, then in the order they were added.
    func allCustomers() throws -> [StoreCustomer] {
        try statement("SELECT \(Self.customerColumns) FROM customers ORDER BY id").query(row: customerRow)
    }

    /// Adds a customer with a new app transaction, made `now`; `nil` when the name is taken.
    func addCustomer(named name: String, now: Int64) throws -> StoreCustomer? {
        guard try customer(named: name) == nil else { return nil }
        let id = try statement(
            """
            INSERT INTO customers (name, app_transaction_id, app_original_purchase_date) VALUES (?1, ?2, ?3)
            RETURNING id
            """
        ).query([.text(name), .integer(Self.newAppTransactionId()), .integer(now)]) { $0.int64(at: 0) }.first
        return try id.flatMap(customer(id:))
    }

    /// Removes a customer who is not the default one, with their transactions, subscriptions, consumption
    /// information and storefront. The notifications made for them stay (they were sent).
    func removeCustomer(_ removed: StoreCustomer) throws {
        precondition(!removed.isDefault, "the default customer is never removed")
        try database.inTransaction {
            try statement(
                """
                DELETE FROM consumption_reports WHERE transaction_id IN
                    (SELECT id FROM transactions WHERE customer_id = ?1)
                """
            ).run([.integer(removed.id)])
            try statement("DELETE FROM transactions WHERE customer_id = ?1").run([.integer(removed.id)])
            try statement("DELETE FROM customer_subscriptions WHERE customer_id = ?1").run([.integer(removed.id)])
            try setSetting(removed.storefrontSettingKey, to: nil)
            try statement("DELETE FROM customers WHERE id = ?1").run([.integer(removed.id)])
        }
    }

    private static let customerColumns = "id, name, app_transaction_id, app_original_purchase_date"

    /// A `customers` row; the default customer's app transaction is kept in `counters`, as before customers existed.
    private func customerRow(_ row: SQLiteStatement) throws -> StoreCustomer {
        let id = row.int64(at: 0)
        let record: AppTransactionRecord
        if id == CustomerContext.defaultId {
            record = try defaultAppTransaction()
        } else {
            record = AppTransactionRecord(id: row.int64(at: 2), originalPurchaseDate: row.int64(at: 3))
        }
        return StoreCustomer(id: id, name: row.text(at: 1) ?? "", appTransaction: record)
    }
}
