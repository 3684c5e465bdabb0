/// Bodies of the App Store Server API subset the mock store serves, with Apple's field names
/// (apple/app-store-server-library: `TransactionInfoResponse`, `HistoryResponse`, …).

/// `GET /inApps/v1/transactions/{transactionId}`.
public struct TransactionInfoResponseBody: Codable, Sendable, Equatable {
    public var signedTransactionInfo: String
    public init(signedTransactionInfo: String) { self.signedTransactionInfo = signedTransactionInfo }
}

/// `GET /inApps/v2/history/{transactionId}`: up to 20 transactions a page.
public struct HistoryResponseBody: Codable, Sendable, Equatable {
    /// Give it back as `revision` for the next page (or, later, for what changed since).
    public var revision: String
    public var hasMore: Bool
    public var bundleId: String
    /// Production only: Apple leaves it out in the sandbox.
    public var appAppleId: Int64?
    public var environment: AppStoreEnvironment
    public var signedTransactions: [String]

    public init(
        revision: String, hasMore: Bool, bundleId: String, appAppleId: Int64?, environment: AppStoreEnvironment,
        signedTransactions: [String]
    ) {
        self.revision = revision
        self.hasMore = hasMore
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.signedTransactions = signedTransactions
    }
}

/// `GET /inApps/v2/refund/lookup/{transactionId}`: refunded transactions, oldest refund first.
public struct RefundHistoryResponseBody: Codable, Sendable, Equatable {
    public var signedTransactions: [String]
    public var revision: String
    public var hasMore: Bool

    public init(signedTransactions: [String], revision: String, hasMore: Bool) {
        self.signedTransactions = signedTransactions
        self.revision = revision
        self.hasMore = hasMore
    }
}

/// `GET /inApps/v1/lookup/{orderId}`: `status` valid (with the order's transactions) or invalid.
public struct OrderLookupResponseBody: Codable, Sendable, Equatable {
    public var status: OrderLookupStatus
    public var signedTransactions: [String]

    public init(status: OrderLookupStatus, signedTransactions: [String]) {
        self.status = status
        self.signedTransactions = signedTransactions
    }
}

/// `POST /inApps/v1/notifications/test`.
public struct SendTestNotificationResponseBody: Codable, Sendable, Equatable {
    public var testNotificationToken: String
    public init(testNotificationToken: String) { self.testNotificationToken = testNotificationToken }
}

/// One try at delivering a notification: when, and how it went.
public struct SendAttemptItem: Codable, Sendable, Equatable {
    /// Milliseconds since 1970.
    public var attemptDate: Int64
    public var sendAttemptResult: SendAttemptResult

    public init(attemptDate: Int64, sendAttemptResult: SendAttemptResult) {
        self.attemptDate = attemptDate
        self.sendAttemptResult = sendAttemptResult
    }
}

/// `GET /inApps/v1/notifications/test/{testNotificationToken}`.
public struct CheckTestNotificationResponseBody: Codable, Sendable, Equatable {
    public var signedPayload: String
    public var sendAttempts: [SendAttemptItem]

    public init(signedPayload: String, sendAttempts: [SendAttemptItem]) {
        self.signedPayload = signedPayload
        self.sendAttempts = sendAttempts
    }
}
