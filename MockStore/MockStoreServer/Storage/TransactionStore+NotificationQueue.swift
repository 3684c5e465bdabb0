import MockStoreSQLite
import StoreWire

/// Notifications read a bounded number at a time: a page of the test control's list, and the next notifications the
/// dispatcher may send (at most one per original transaction, the earliest waiting).
extension TransactionStore {
    /// At most `limit` notifications after row `after`, oldest first, each with its attempts (signed if it was
    /// recorded unsigned), and whether more follow. Row numbers only grow, so a walk by them neither misses nor
    /// repeats a notification made while it walks.
    func notificationPage(after: Int64, limit: Int) throws -> (page: [StoredNotification], hasMore: Bool) {
        let rows = try statement(
            "SELECT \(Self.notificationColumns) FROM notifications WHERE id > ?1 ORDER BY id LIMIT ?2"
        ).query([.integer(after), .integer(Int64(limit) + 1)], row: Self.notification)
        return (try rows.prefix(limit).map { try withAttempts($0) }, rows.count > limit)
    }

    /// How many due notifications one look considers, oldest first (a bound on the work done under the lock).
    static let dueNotificationsScanned = 512

    /// Up to `limit` pending notifications due by `now` that may go out together: for each original transaction,
    /// only its earliest notification still pending, and none while an earlier one of it waits for a retry (see
    /// ``DeliveryOrder``). Unsigned ones are left unsigned (the dispatcher signs them outside the lock). Also when the
    /// next pending notification not yet due is due.
    func dueNotifications(now: Int64, limit: Int) throws -> (due: [StoredNotification], nextDue: Int64?) {
        let candidates = try statement(
            """
            SELECT n.id, COALESCE(t.original_id, n.transaction_id) FROM notifications n
            LEFT JOIN transactions t ON t.id = n.transaction_id
            WHERE n.status = 'pending' AND n.next_attempt_at <= ?1 ORDER BY n.id LIMIT ?2
            """
        ).query([.integer(now), .integer(Int64(Self.dueNotificationsScanned))]) { row in
            DeliveryOrder.Candidate(id: row.int64(at: 0), key: row.text(at: 1))
        }
        let waiting = try statement(
            """
            SELECT COALESCE(t.original_id, n.transaction_id), MIN(n.id) FROM notifications n
            LEFT JOIN transactions t ON t.id = n.transaction_id
            WHERE n.status = 'pending' AND n.next_attempt_at > ?1 AND n.transaction_id IS NOT NULL GROUP BY 1
            """
        ).query([.integer(now)]) { row in (row.text(at: 0) ?? "", row.int64(at: 1)) }
        let order = DeliveryOrder(waitingForRetry: Dictionary(waiting, uniquingKeysWith: min))
        var due: [StoredNotification] = []
        for id in order.sendable(candidates, limit: limit) {
            let rows = try statement("SELECT \(Self.notificationColumns) FROM notifications WHERE id = ?1")
                .query([.integer(id)], row: Self.notification)
            due += try rows.map { try withAttempts($0, sealing: false) }
        }
        let next =
            try statement(
                "SELECT MIN(next_attempt_at) FROM notifications WHERE status = 'pending' AND next_attempt_at > ?1"
            ).query([.integer(now)]) { $0.optionalInt64(at: 0) }.first ?? nil
        return (due, next)
    }
}
