/// The payload of signed renewal info, with Apple's field names (`JWSRenewalInfoDecodedPayload`). Dates are
/// milliseconds since 1970; `renewalPrice` is in milliunits of `currency`.
public struct RenewalInfoPayload: Codable, Sendable, Equatable {
    public var originalTransactionId: String
    public var autoRenewProductId: String
    public var productId: String
    /// 0 off, 1 on.
    public var autoRenewStatus: Int
    /// Once expired: 1 cancelled, 2 billing error, 3 no consent to a price increase, 4 product not available,
    /// 5 other.
    public var expirationIntent: Int?
    public var isInBillingRetryPeriod: Bool?
    public var priceIncreaseStatus: Int?
    public var gracePeriodExpiresDate: Int64?
    public var offerType: Int?
    public var offerIdentifier: String?
    public var offerDiscountType: String?
    public var offerPeriod: String?
    public var signedDate: Int64
    /// `Sandbox` or `Production`.
    public var environment: String
    public var recentSubscriptionStartDate: Int64
    public var renewalDate: Int64
    public var currency: String
    public var renewalPrice: Int64
    public var appAccountToken: String?
    public var appTransactionId: String?
    /// The win-back offers the customer may redeem now, best first (a lapsed subscription only).
    public var eligibleWinBackOfferIds: [String]?

    public init(
        originalTransactionId: String, autoRenewProductId: String, productId: String, autoRenewStatus: Int,
        expirationIntent: Int? = nil, isInBillingRetryPeriod: Bool? = nil, priceIncreaseStatus: Int? = nil,
        gracePeriodExpiresDate: Int64? = nil, offerType: Int? = nil, offerIdentifier: String? = nil,
        offerDiscountType: String? = nil, offerPeriod: String? = nil, signedDate: Int64, environment: String,
        recentSubscriptionStartDate: Int64, renewalDate: Int64, currency: String, renewalPrice: Int64,
        appAccountToken: String? = nil, appTransactionId: String? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.autoRenewProductId = autoRenewProductId
        self.productId = productId
        self.autoRenewStatus = autoRenewStatus
        self.expirationIntent = expirationIntent
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.priceIncreaseStatus = priceIncreaseStatus
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.offerDiscountType = offerDiscountType
        self.offerPeriod = offerPeriod
        self.signedDate = signedDate
        self.environment = environment
        self.recentSubscriptionStartDate = recentSubscriptionStartDate
        self.renewalDate = renewalDate
        self.currency = currency
        self.renewalPrice = renewalPrice
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
    }
}
