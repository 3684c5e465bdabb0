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
    public var state: SubscriptionRenewalState
    public var signedTransaction: String
    public var signedRenewalInfo: String

    public init(state: SubscriptionRenewalState, signedTransaction: String, signedRenewalInfo: String) {
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
