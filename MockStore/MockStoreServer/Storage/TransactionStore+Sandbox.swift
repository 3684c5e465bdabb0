import MockStoreSQLite
import StoreWire

/// The test controls' and the Server API's changes to transactions, and the sandbox's app transaction (issue 5).
extension TransactionStore {
    // MARK: Changing transactions

    /// Changes a transaction in one database transaction: logs `kind` at `date`, applies `assignments` (SQL
    /// `column = ?N` with parameters from `?2`; `?1` is the id), bumps its version, and returns its new state.
    @discardableResult
    func update(
        id: String, kind: TransactionChange.Kind, date: Int64, assignments: String, values: [SQLiteValue] = []
    ) throws -> StoredTransaction? {
        try database.inTransaction {
            guard try transaction(id: id) != nil else { return nil }
            let sequence = try logChange(kind, transactionId: id, date: date)
            let sequenceIndex = values.count + 2
            try statement(
                """
                UPDATE transactions SET \(assignments), version = version + 1, change_sequence = ?\(sequenceIndex)
                WHERE id = ?1
                """
            ).run([.text(id)] + values + [.integer(sequence)])
            return try transaction(id: id)
        }
    }

    /// Sets a transaction's refund request state without logging a change (its signed form does not change).
    func setRefundRequest(id: String, to state: StoredTransaction.RefundRequest?) throws {
        try statement("UPDATE transactions SET refund_request = ?2 WHERE id = ?1")
            .run([.text(id), .optional(state?.rawValue)])
    }

    /// Sets a transaction's `appAccountToken` (Set App Account Token) without logging a change: the history keeps
    /// its place, and every later signing carries the token.
    func setAppAccountToken(id: String, to token: String) throws {
        try statement("UPDATE transactions SET app_account_token = ?2 WHERE id = ?1").run([.text(id), .text(token)])
    }

    /// For each transaction of the customer, the number of its last change that the history orders by: every change
    /// but a finish (finishing moves a transaction neither in the history nor past a revision).
    func historySequences() throws -> [String: Int64] {
        let rows = try statement(
            """
            SELECT c.transaction_id, MAX(c.sequence) FROM transaction_changes c
            JOIN transactions t ON t.id = c.transaction_id
            WHERE c.kind <> 'finished' AND t.customer_id = ?1
            GROUP BY c.transaction_id
            """
        ).query([.integer(actingFor.id)]) { ($0.text(at: 0) ?? "", $0.int64(at: 1)) }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// The customer's app transaction, made the first time it is asked for (`now` its original purchase date) and
    /// kept in `counters`, which neither `clear` nor `reset` empties.
    struct AppTransactionRecord: Equatable, Sendable {
        var id: Int64
        var originalPurchaseDate: Int64
    }

    func appTransactionRecord(now: Int64) throws -> AppTransactionRecord {
        try statement("INSERT OR IGNORE INTO counters (name, value) VALUES ('app_transaction_id', ?1)")
            .run([.integer(Self.newAppTransactionId())])
        try statement("INSERT OR IGNORE INTO counters (name, value) VALUES ('app_original_purchase_date', ?1)")
            .run([.integer(now)])
        return try defaultAppTransaction(now: now)
    }

    /// The default customer's app transaction as `counters` keeps it (made by ``appTransactionRecord(now:)`` when the
    /// store starts; `now` stands in for what is missing).
    func defaultAppTransaction(now: Int64 = 0) throws -> AppTransactionRecord {
        let values = try statement(
            "SELECT name, value FROM counters WHERE name IN ('app_transaction_id', 'app_original_purchase_date')"
        ).query { ($0.text(at: 0) ?? "", $0.int64(at: 1)) }
        let byName = Dictionary(values, uniquingKeysWith: { first, _ in first })
        return AppTransactionRecord(
            id: byName["app_transaction_id"] ?? Self.newAppTransactionId(),
            originalPurchaseDate: byName["app_original_purchase_date"] ?? now)
    }

    /// A new app transaction id: 18 digits, as Apple's are (`704289572311325510`).
    static func newAppTransactionId() -> Int64 {
        Int64.random(in: 700_000_000_000_000_000...799_999_999_999_999_999)
    }

    /// Removes one transaction (its change log goes with it). Returns whether there was one.
    func delete(id: String) throws -> Bool {
        try database.inTransaction {
            guard try transaction(id: id) != nil else { return false }
            try statement("DELETE FROM transactions WHERE id = ?1").run([.text(id)])
            try statement("DELETE FROM consumption_reports WHERE transaction_id = ?1").run([.text(id)])
            return true
        }
    }

    /// Removes every transaction and the consumption information sent for them. Serial numbers, order numbers
    /// and change sequence numbers go on from where they were: no id is ever handed out twice.
    func deleteAllTransactions() throws {
        try database.inTransaction {
            try database.execute(
                "DELETE FROM transactions; DELETE FROM consumption_reports; DELETE FROM customer_subscriptions;")
        }
    }

    /// Back to the catalogue's defaults: no transactions, settings, failures, consumption information or
    /// notifications. Counters are kept (ids are never reused).
    func resetToDefaults() throws {
        settingsMayHaveChanged?()
        try database.inTransaction {
            try database.execute(
                """
                DELETE FROM transactions; DELETE FROM consumption_reports; DELETE FROM settings;
                DELETE FROM simulated_failures; DELETE FROM notifications; DELETE FROM customer_subscriptions;
                """)
        }
    }

    /// Paid transactions with this order id, oldest first.
    func transactions(orderId: String) throws -> [StoredTransaction] {
        try statement(
            "SELECT \(Self.columns) FROM transactions WHERE order_id = ?1 AND status = 'purchased' ORDER BY serial"
        ).query([.text(orderId)], row: Self.row)
    }
}
