import MockStoreSQLite
import StoreWire

/// The change log: every change to a transaction numbered in order, what the updates feed reads.
extension TransactionStore {
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

    /// The number the change log has reached, deletions included (`sqlite_sequence`): the cursor of "now".
    func changeSequenceHighWater() throws -> Int64 {
        let sequence =
            try statement("SELECT seq FROM sqlite_sequence WHERE name = 'transaction_changes'")
            .query { $0.int64(at: 0) }.first ?? 0
        return max(sequence, try latestChangeSequence())
    }

    /// Transactions with a change the app learns of through the updates feed (``TransactionChange/Kind/isUpdate``,
    /// or the creation of an outside purchase) after `sequence`, each once with the sequence number of its latest
    /// such change, in that order; at most `limit`, and whether more wait.
    func updates(after sequence: Int64, limit: Int) throws -> (updates: [(StoredTransaction, Int64)], hasMore: Bool) {
        let kinds = TransactionChange.Kind.allCases.filter(\.isUpdate).map { "'\($0.rawValue)'" }
            .joined(separator: ", ")
        let rows = try statement(
            """
            SELECT c.transaction_id, MAX(c.sequence) AS last FROM transaction_changes c
            JOIN transactions t ON t.id = c.transaction_id
            WHERE c.sequence > ?1 AND t.status = 'purchased' AND t.customer_id = ?3
              AND (c.kind IN (\(kinds)) OR (c.kind = 'created' AND t.origin = 'outside'))
            GROUP BY c.transaction_id ORDER BY last LIMIT ?2
            """
        ).query([.integer(sequence), .integer(Int64(limit + 1)), .integer(actingFor.id)]) {
            ($0.text(at: 0) ?? "", $0.int64(at: 1))
        }
        var updates: [(StoredTransaction, Int64)] = []
        for (id, last) in rows.prefix(limit) {
            if let transaction = try transaction(id: id) {
                updates.append((transaction, last))
            }
        }
        return (updates, rows.count > limit)
    }
}
