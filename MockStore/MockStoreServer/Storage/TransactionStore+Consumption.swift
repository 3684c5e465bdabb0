import MockStoreSQLite
import StoreWire

/// Consumption information the Server API received, for the test controls to show.
extension TransactionStore {
    func recordConsumption(transactionId: String, apiVersion: String, receivedAt: Int64, body: String) throws {
        try statement(
            "INSERT INTO consumption_reports (transaction_id, api_version, received_at, body) VALUES (?1, ?2, ?3, ?4)"
        ).run([.text(transactionId), .text(apiVersion), .integer(receivedAt), .text(body)])
    }

    /// (transaction id, API version, received at, body), oldest first: the named customer's (a request that named
    /// one), else every customer's.
    func consumptionReports() throws -> [(String, String, Int64, String)] {
        let row = { (row: SQLiteStatement) in
            (row.text(at: 0) ?? "", row.text(at: 1) ?? "", row.int64(at: 2), row.text(at: 3) ?? "")
        }
        guard actingFor.isNamed else {
            return try statement(
                "SELECT transaction_id, api_version, received_at, body FROM consumption_reports ORDER BY id"
            ).query(row: row)
        }
        return try statement(
            """
            SELECT transaction_id, api_version, received_at, body FROM consumption_reports
            WHERE transaction_id IN (SELECT id FROM transactions WHERE customer_id = ?1) ORDER BY id
            """
        ).query([.integer(actingFor.id)], row: row)
    }
}
