import MockStoreSQLite
import StoreWire

/// The notifications the store sends, and each attempt to send them.
extension TransactionStore {
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
