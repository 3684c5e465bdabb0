/// Get All Subscription Statuses (`StatusResponse`): the customer's subscriptions, by group.
public struct StatusResponseBody: Codable, Sendable, Equatable {
    public var environment: AppStoreEnvironment
    /// Production only.
    public var appAppleId: Int64?
    public var bundleId: String
    public var data: [SubscriptionGroupIdentifierItem]

    public init(
        environment: AppStoreEnvironment, appAppleId: Int64?, bundleId: String, data: [SubscriptionGroupIdentifierItem]
    ) {
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.data = data
    }
}

/// One group of a status answer (`SubscriptionGroupIdentifierItem`).
public struct SubscriptionGroupIdentifierItem: Codable, Sendable, Equatable {
    public var subscriptionGroupIdentifier: String
    public var lastTransactions: [LastTransactionsItem]

    public init(subscriptionGroupIdentifier: String, lastTransactions: [LastTransactionsItem]) {
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.lastTransactions = lastTransactions
    }
}

/// One subscription's status (`LastTransactionsItem`).
public struct LastTransactionsItem: Codable, Sendable, Equatable {
    public var status: SubscriptionStatus
    public var originalTransactionId: String
    public var signedTransactionInfo: String
    public var signedRenewalInfo: String

    public init(
        status: SubscriptionStatus, originalTransactionId: String, signedTransactionInfo: String,
        signedRenewalInfo: String
    ) {
        self.status = status
        self.originalTransactionId = originalTransactionId
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
    }
}

/// The device API's `Product.SubscriptionInfo.status` for a group: one entry per subscription (one here).
public struct SubscriptionStatusesBody: Codable, Sendable, Equatable {
    public var statuses: [SubscriptionStatusItem]
    public init(statuses: [SubscriptionStatusItem]) { self.statuses = statuses }
}

/// `Product.SubscriptionInfo.Status`: `state` (`subscribed`, `expired`, `inBillingRetryPeriod`, `inGracePeriod`,
/// `revoked`), the latest transaction and the renewal info, signed.
public struct SubscriptionStatusItem: Codable, Sendable, Equatable {
    public var state: String
    public var signedTransaction: String
    public var signedRenewalInfo: String

    public init(state: String, signedTransaction: String, signedRenewalInfo: String) {
        self.state = state
        self.signedTransaction = signedTransaction
        self.signedRenewalInfo = signedRenewalInfo
    }
}

/// `Product.SubscriptionInfo.isEligibleForIntroOffer(for:)`.
public struct IntroOfferEligibilityBody: Codable, Sendable, Equatable {
    public var subscriptionGroupIdentifier: String
    public var isEligibleForIntroOffer: Bool

    public init(subscriptionGroupIdentifier: String, isEligibleForIntroOffer: Bool) {
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.isEligibleForIntroOffer = isEligibleForIntroOffer
    }
}

/// The virtual clock (`control clock`): virtual now, the rate by name and `_timeRate` number, and the speed-up.
public struct TestClockBody: Codable, Sendable, Equatable {
    /// Milliseconds since 1970.
    public var now: Int64
    /// ISO 8601, UTC.
    public var nowISO8601: String
    public var rate: String
    public var timeRate: Int
    /// Virtual milliseconds per real millisecond.
    public var factor: Double
    /// Subscription events the call ran (`clock advance`), in order.
    public var events: [TestSubscriptionEventRecord]?

    public init(
        now: Int64, nowISO8601: String, rate: String, timeRate: Int, factor: Double,
        events: [TestSubscriptionEventRecord]? = nil
    ) {
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
    public var state: String
    public var latestTransactionId: String
    public var expiresDate: Int64
    public var expirationIntent: ExpirationIntent?
    public var isEntitled: Bool
    public var signedRenewalInfo: String?

    public init(
        originalTransactionId: String, subscriptionGroupIdentifier: String, productId: String,
        autoRenewProductId: String, autoRenewStatus: AutoRenewStatus, status: SubscriptionStatus, state: String,
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
