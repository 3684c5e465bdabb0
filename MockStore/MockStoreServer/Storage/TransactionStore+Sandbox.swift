import MockStoreSQLite
import StoreWire

/// The test controls', updates feed's, Server API's and notifications' use of the store (issue 5).
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

    // MARK: Updates feed

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

    // MARK: Simulated failures

    /// The failure set at run time for `api`: `error` nil means "explicitly none" (it overrides the catalogue's).
    func failure(for api: String) throws -> (error: String?, once: Bool)? {
        try statement("SELECT error, once FROM simulated_failures WHERE api = ?1")
            .query([.text(api)]) { ($0.text(at: 0), $0.int64(at: 1) != 0) }.first
    }

    /// Sets (or, with `error` nil, explicitly clears) the failure of `api`.
    func setFailure(for api: String, error: String?, once: Bool) throws {
        settingsMayHaveChanged?()
        try statement(
            """
            INSERT INTO simulated_failures (api, error, once) VALUES (?1, ?2, ?3)
            ON CONFLICT (api) DO UPDATE SET error = ?2, once = ?3
            """
        ).run([.text(api), .optional(error), .integer(once ? 1 : 0)])
    }

    // MARK: Consumption information

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

    // MARK: Notifications

    /// Records a notification to send (`pending`, due at `dueAt`) or, with `dueAt` nil, one that has nowhere to go.
    func insertNotification(_ notification: StoredNotification) throws {
        try statement(
            """
            INSERT INTO notifications (uuid, type, subtype, transaction_id, test_token, signed_payload, created_at,
                status, next_attempt_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            """
        ).run([
            .text(notification.uuid), .text(notification.type.rawValue), .optional(notification.subtype?.rawValue),
            .optional(notification.transactionId), .optional(notification.testToken),
            .text(notification.signedPayload), .integer(notification.createdAt), .text(notification.status.rawValue),
            notification.nextAttemptAt.map(SQLiteValue.integer) ?? .null,
        ])
    }

    /// Every notification, oldest first, with its attempts.
    func notifications() throws -> [StoredNotification] {
        try statement("SELECT \(Self.notificationColumns) FROM notifications ORDER BY id").query(row: Self.notification)
            .map { try withAttempts($0) }
    }

    /// The notification asked for with this test token.
    func notification(testToken: String) throws -> StoredNotification? {
        try statement("SELECT \(Self.notificationColumns) FROM notifications WHERE test_token = ?1")
            .query([.text(testToken)], row: Self.notification).first.map { try withAttempts($0) }
    }

    /// Moves the next try of every pending notification already tried to `next(failedAttempts, lastAttempt)`,
    /// or ends it as failed where that is nil.
    func reschedulePendingNotifications(_ next: (_ failedAttempts: Int, _ lastAttempt: Int64) -> Int64?) throws {
        try database.inTransaction {
            let pending = try statement(
                """
                SELECT n.id, COUNT(a.id), MAX(a.at) FROM notifications n JOIN notification_attempts a
                ON a.notification_id = n.id WHERE n.status = 'pending' GROUP BY n.id ORDER BY n.id
                """
            ).query([]) { row in (id: row.int64(at: 0), failed: Int(row.int64(at: 1)), last: row.int64(at: 2)) }
            for notification in pending {
                let at = next(notification.failed, notification.last)
                let status: StoredNotification.Status = at == nil ? .failed : .pending
                try statement("UPDATE notifications SET status = ?2, next_attempt_at = ?3 WHERE id = ?1")
                    .run([.integer(notification.id), .text(status.rawValue), at.map(SQLiteValue.integer) ?? .null])
            }
        }
    }

    /// Records one delivery attempt and what follows: `nextAttemptAt` nil ends the notification as `status`.
    func recordAttempt(
        notificationUUID uuid: String, attempt: StoredNotification.Attempt, status: StoredNotification.Status,
        nextAttemptAt: Int64?, sealed: (deferred: String, signed: String)? = nil
    ) throws {
        try database.inTransaction {
            guard
                let id = try statement("SELECT id FROM notifications WHERE uuid = ?1")
                    .query([.text(uuid)], row: { $0.int64(at: 0) }).first
            else { return }
            try statement(
                "INSERT INTO notification_attempts (notification_id, at, result, http_status, detail) VALUES (?1, ?2, ?3, ?4, ?5)"
            ).run([
                .integer(id), .integer(attempt.date), .text(attempt.result.rawValue),
                attempt.httpStatus.map { SQLiteValue.integer(Int64($0)) } ?? .null, .optional(attempt.detail),
            ])
            try statement("UPDATE notifications SET status = ?2, next_attempt_at = ?3 WHERE id = ?1")
                .run([.integer(id), .text(status.rawValue), nextAttemptAt.map(SQLiteValue.integer) ?? .null])
            if let sealed {
                // Signed outside the lock by the dispatcher: kept, unless a reader signed it meanwhile.
                try statement("UPDATE notifications SET signed_payload = ?2 WHERE id = ?1 AND signed_payload = ?3")
                    .run([.integer(id), .text(sealed.signed), .text(sealed.deferred)])
            }
        }
    }

    static let notificationColumns =
        "id, uuid, type, subtype, transaction_id, test_token, signed_payload, created_at, status, next_attempt_at"

    static func notification(_ row: SQLiteStatement) throws -> StoredNotification {
        let statusText = row.text(at: 8) ?? ""
        let status = StoredNotification.Status(rawValue: statusText)
        guard status.isRecognized else {
            throw SQLiteError(
                code: SQLiteError.corruptCode, message: "unknown notification status '\(statusText)'",
                operation: "reading a notification")
        }
        return StoredNotification(
            id: row.int64(at: 0), uuid: row.text(at: 1) ?? "", type: NotificationType(rawValue: row.text(at: 2) ?? ""),
            subtype: row.text(at: 3).map(NotificationSubtype.init(rawValue:)),
            transactionId: row.text(at: 4), testToken: row.text(at: 5), signedPayload: row.text(at: 6) ?? "",
            createdAt: row.int64(at: 7), status: status, nextAttemptAt: row.optionalInt64(at: 9), attempts: [])
    }

    /// `notification` with its attempts, and signed if it was recorded unsigned (the signature then kept), unless
    /// `sealing` is false (the dispatcher signs outside the store's lock, see ``StoreNotifications/sealed(_:)``).
    func withAttempts(_ notification: StoredNotification, sealing: Bool = true) throws -> StoredNotification {
        var notification = notification
        if sealing, DeferredNotification.isDeferred(notification.signedPayload), let sealNotification {
            let deferred = notification.signedPayload
            notification.signedPayload = try sealNotification(deferred)
            try statement("UPDATE notifications SET signed_payload = ?2 WHERE id = ?1 AND signed_payload = ?3")
                .run([.integer(notification.id), .text(notification.signedPayload), .text(deferred)])
        }
        notification.attempts = try statement(
            "SELECT at, result, http_status, detail FROM notification_attempts WHERE notification_id = ?1 ORDER BY id"
        ).query([.integer(notification.id)]) { row in
            StoredNotification.Attempt(
                date: row.int64(at: 0), result: SendAttemptResult(rawValue: row.text(at: 1) ?? ""),
                httpStatus: row.optionalInt64(at: 2).map { Int($0) }, detail: row.text(at: 3))
        }
        return notification
    }
}
