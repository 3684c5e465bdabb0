import StoreTestControls
import StoreWire

/// Get Notification History: every notification the store made, as Apple's endpoint lists them.
extension StoreNotifications {
    /// Notifications a history page carries (Apple: up to 20).
    public static let notificationHistoryPageSize = 20

    /// The notifications `body` asks for, oldest first, 20 a page, each with its send attempts.
    ///
    /// - Throws: ``MockStoreError`` with Apple's code for each bad field (see ``NotificationHistoryQuery``), and
    ///   4040010 for a `transactionId` the store does not have.
    public func notificationHistory(_ body: NotificationHistoryRequestBody, paginationToken: String?)
        throws(MockStoreError) -> NotificationHistoryResponseBody
    {
        let query = try NotificationHistoryQuery(
            body, paginationToken: paginationToken, now: configuration.clock.now().millisecondsSince1970,
            production: configuration.isProduction)
        let (notifications, customersTransactions) = try withDatabase { database in
            // With a transaction id: the notifications about that customer's transactions, no other customer's.
            var customersTransactions: Set<String>?
            if let id = query.transactionId {
                _ = try paid(id, database)
                customersTransactions = Set(try database.allTransactions().map(\.id))
            }
            return (try database.notifications(), customersTransactions)
        }
        let matching = notifications.filter { notification in
            notification.id > query.after && query.matches(notification)
                && customersTransactions.map { notification.transactionId.map($0.contains) ?? false } ?? true
        }
        let page = Array(matching.prefix(Self.notificationHistoryPageSize))
        let hasMore = matching.count > page.count
        return NotificationHistoryResponseBody(
            notificationHistory: page.map { notification in
                NotificationHistoryItem(
                    signedPayload: notification.signedPayload,
                    sendAttempts: notification.attempts.map {
                        SendAttemptItem(attemptDate: $0.date, sendAttemptResult: $0.result)
                    })
            },
            hasMore: hasMore,
            paginationToken: hasMore ? page.last.map { NotificationHistoryQuery.token(after: $0.id) } : nil)
    }

    // MARK: Records

    /// Every notification the store made, oldest first, with each delivery attempt.
    public func notificationRecords() throws(MockStoreError) -> TestNotificationsBody {
        TestNotificationsBody(notifications: try withDatabase { try $0.notifications() }.map(TestControlBodies.record))
    }
}
