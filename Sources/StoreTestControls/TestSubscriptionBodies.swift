import StoreWire

/// The store's clock (`control clock`): which clock, its now, the rate by name and `_timeRate` number, and the
/// speed-up.
public struct TestClockBody: Codable, Sendable, Equatable {
    /// The virtual clock, or Apple's sandbox clock (the wall clock: `factor` 1, `rate` the sandbox's renewal rate).
    public var kind: StoreClockKind
    /// Milliseconds since 1970.
    public var now: Int64
    /// ISO 8601, UTC.
    public var nowISO8601: String
    public var rate: StoreTimeRate
    public var timeRate: Int
    /// Virtual milliseconds per real millisecond.
    public var factor: Double
    /// Subscription events the call ran (`clock advance`), in order.
    public var events: [TestSubscriptionEventRecord]?

    public init(
        kind: StoreClockKind = .virtual, now: Int64, nowISO8601: String, rate: StoreTimeRate, timeRate: Int,
        factor: Double,
        events: [TestSubscriptionEventRecord]? = nil
    ) {
        self.kind = kind
        self.now = now
        self.nowISO8601 = nowISO8601
        self.rate = rate
        self.timeRate = timeRate
        self.factor = factor
        self.events = events
    }
}

/// `clock advance {"duration"}` / `clock rate {"rate"}` bodies.
public struct TestClockRequest: Codable, Sendable, Equatable {
    /// An ISO 8601 duration (`P1M`).
    public var duration: String?
    /// A rate's name (`monthlyRenewalEveryHour`) or its `_timeRate` number.
    public var rate: String?

    public init(duration: String? = nil, rate: String? = nil) {
        self.duration = duration
        self.rate = rate
    }
}

/// One subscription event a control or the clock ran.
public struct TestSubscriptionEventRecord: Codable, Sendable, Equatable {
    public var date: Int64
    public var productId: String
    public var originalTransactionId: String
    public var notificationType: NotificationType?
    public var subtype: NotificationSubtype?
    public var transactionId: String?

    public init(
        date: Int64, productId: String, originalTransactionId: String, notificationType: NotificationType?,
        subtype: NotificationSubtype?,
        transactionId: String?
    ) {
        self.date = date
        self.productId = productId
        self.originalTransactionId = originalTransactionId
        self.notificationType = notificationType
        self.subtype = subtype
        self.transactionId = transactionId
    }
}

/// `control subscriptions`: every subscription, as the store holds it.
public struct TestSubscriptionsBody: Codable, Sendable, Equatable {
    public var subscriptions: [TestSubscription]
    public init(subscriptions: [TestSubscription]) { self.subscriptions = subscriptions }
}

/// One subscription in `control subscriptions`.
public struct TestSubscription: Codable, Sendable, Equatable {
    public var originalTransactionId: String
    public var subscriptionGroupIdentifier: String
    public var productId: String
    public var autoRenewProductId: String
    public var autoRenewStatus: AutoRenewStatus
    public var status: SubscriptionStatus
    public var state: SubscriptionRenewalState
    public var latestTransactionId: String
    public var expiresDate: Int64
    public var expirationIntent: ExpirationIntent?
    public var isEntitled: Bool
    public var signedRenewalInfo: String?

    public init(
        originalTransactionId: String, subscriptionGroupIdentifier: String, productId: String,
        autoRenewProductId: String, autoRenewStatus: AutoRenewStatus, status: SubscriptionStatus,
        state: SubscriptionRenewalState,
        latestTransactionId: String,
        expiresDate: Int64, expirationIntent: ExpirationIntent?, isEntitled: Bool, signedRenewalInfo: String? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.productId = productId
        self.autoRenewProductId = autoRenewProductId
        self.autoRenewStatus = autoRenewStatus
        self.status = status
        self.state = state
        self.latestTransactionId = latestTransactionId
        self.expiresDate = expiresDate
        self.expirationIntent = expirationIntent
        self.isEntitled = isEntitled
        self.signedRenewalInfo = signedRenewalInfo
    }
}

/// `POST /test/v1/transactions/{id}/auto-renew {"enabled"}`, and a device's change of plan
/// (`POST /storekit/v1/subscriptions/change {"productId"}` is a purchase; this is the control's body).
public struct TestAutoRenewRequest: Codable, Sendable, Equatable {
    public var enabled: Bool
    public init(enabled: Bool) { self.enabled = enabled }
}
