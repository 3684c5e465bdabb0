/// Get Notification History (`POST /inApps/v1/notifications/history`), with Apple's field names
/// (`NotificationHistoryRequest`, `NotificationHistoryResponse`, `NotificationHistoryResponseItem`).

/// The request body: `startDate` and `endDate` are required; the other fields narrow the answer.
public struct NotificationHistoryRequestBody: Codable, Sendable, Equatable {
    /// Milliseconds since 1970.
    public var startDate: Int64?
    public var endDate: Int64?
    public var notificationType: NotificationType?
    public var notificationSubtype: NotificationSubtype?
    /// Any transaction of the customer: that customer's notifications.
    public var transactionId: String?
    /// Only notifications that have not reached the server.
    public var onlyFailures: Bool?

    public init(
        startDate: Int64? = nil, endDate: Int64? = nil, notificationType: NotificationType? = nil,
        notificationSubtype: NotificationSubtype? = nil, transactionId: String? = nil, onlyFailures: Bool? = nil
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.notificationType = notificationType
        self.notificationSubtype = notificationSubtype
        self.transactionId = transactionId
        self.onlyFailures = onlyFailures
    }
}

/// One notification: its signed payload and every try at sending it.
public struct NotificationHistoryItem: Codable, Sendable, Equatable {
    public var signedPayload: String
    public var sendAttempts: [SendAttemptItem]

    public init(signedPayload: String, sendAttempts: [SendAttemptItem]) {
        self.signedPayload = signedPayload
        self.sendAttempts = sendAttempts
    }
}

/// The answer: a page of notifications, oldest first; `paginationToken` (with `hasMore`) asks for the next.
public struct NotificationHistoryResponseBody: Codable, Sendable, Equatable {
    public var notificationHistory: [NotificationHistoryItem]
    public var hasMore: Bool
    public var paginationToken: String?

    public init(notificationHistory: [NotificationHistoryItem], hasMore: Bool, paginationToken: String?) {
        self.notificationHistory = notificationHistory
        self.hasMore = hasMore
        self.paginationToken = paginationToken
    }
}
