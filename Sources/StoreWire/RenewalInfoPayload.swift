/// The payload of signed renewal info, with Apple's field names (`JWSRenewalInfoDecodedPayload`). Dates are
/// milliseconds since 1970; `renewalPrice` is in milliunits of `currency`.
public struct RenewalInfoPayload: Codable, Sendable, Equatable {
    public var originalTransactionId: String
    public var autoRenewProductId: String
    public var productId: String
    public var autoRenewStatus: AutoRenewStatus
    /// Once expired.
    public var expirationIntent: ExpirationIntent?
    public var isInBillingRetryPeriod: Bool?
    public var priceIncreaseStatus: PriceIncreaseStatus?
    public var gracePeriodExpiresDate: Int64?
    public var offerType: OfferType?
    public var offerIdentifier: String?
    public var offerDiscountType: OfferDiscountType?
    public var offerPeriod: String?
    public var signedDate: Int64
    public var environment: AppStoreEnvironment
    public var recentSubscriptionStartDate: Int64
    public var renewalDate: Int64
    public var currency: String
    public var renewalPrice: Int64
    public var appAccountToken: String?
    public var appTransactionId: String?
    /// The win-back offers the customer may redeem now, best first (a lapsed subscription only).
    public var eligibleWinBackOfferIds: [String]?

    public init(
        originalTransactionId: String, autoRenewProductId: String, productId: String, autoRenewStatus: AutoRenewStatus,
        expirationIntent: ExpirationIntent? = nil, isInBillingRetryPeriod: Bool? = nil,
        priceIncreaseStatus: PriceIncreaseStatus? = nil,
        gracePeriodExpiresDate: Int64? = nil, offerType: OfferType? = nil, offerIdentifier: String? = nil,
        offerDiscountType: OfferDiscountType? = nil, offerPeriod: String? = nil, signedDate: Int64,
        environment: AppStoreEnvironment,
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
