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

    /// A page of the notifications the store made (`GET /test/v1/notifications`), oldest first, with each delivery
    /// attempt: after the one `revision` names (from the start without one), at most `limit` (default 100, at most
    /// 1,000), with `hasMore` and the `revision` of the next page. Only a page is read into memory.
    ///
    /// - Throws: ``MockStoreError`` 4000005 for a revision the store did not make, 400 for a bad `limit`.
    public func notificationRecords(revision: String?, limit: String?) throws(MockStoreError) -> TestNotificationsBody {
        let query = try NotificationPageQuery(revision: revision, limit: limit)
        let (page, hasMore) = try withDatabase(durability: .committed) { database in
            try database.notificationPage(after: query.after, limit: query.limit)
        }
        return TestNotificationsBody(
            notifications: page.map(TestControlBodies.record), hasMore: hasMore,
            revision: NotificationPageQuery.revision(after: page.last?.id ?? query.after))
    }

    /// Every notification the store made, oldest first, with each delivery attempt: every page, joined (in
    /// process: the console and tests).
    public func notificationRecords() throws(MockStoreError) -> TestNotificationsBody {
        var records: [TestNotificationRecord] = []
        var revision: String?
        while true {
            let page = try notificationRecords(revision: revision, limit: String(NotificationPageQuery.largestLimit))
            records += page.notifications
            guard page.hasMore == true else { return TestNotificationsBody(notifications: records) }
            revision = page.revision
        }
    }
}
