import StoreWire

/// Get Notification History: every notification the store made, as Apple's endpoint lists them.
extension MockStore {
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
        let notifications = try withDatabase { database in
            if let id = query.transactionId {
                _ = try paid(id, database)
            }
            return try database.notifications()
        }
        let matching = notifications.filter { $0.id > query.after && query.matches($0) }
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
}
