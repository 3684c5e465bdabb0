import StoreKitCatalogue
import StoreWire

extension SubscriptionStatus {
    /// StoreKit's `Product.SubscriptionInfo.RenewalState` (an unrecognized status as its number).
    public var storeKitState: SubscriptionRenewalState {
        switch self {
        case .active: .subscribed
        case .expired: .expired
        case .billingRetry: .inBillingRetryPeriod
        case .billingGracePeriod: .inGracePeriod
        case .revoked: .revoked
        case .unrecognized(let value): .unrecognized(String(value))
        }
    }
}

/// A subscription product as the lifecycle sees it: its group, level, period, price and introductory offer.
public struct SubscriptionProduct: Equatable, Sendable {
    public var id: String
    public var groupId: String
    /// 1 is the highest level of service (``SubscriptionDetails/groupLevel``).
    public var level: Int
    public var period: SubscriptionPeriod
    /// The full price of one period, in milliunits.
    public var price: Int64
    public var introductoryOffer: SubscriptionOffer?

    public init(
        id: String, groupId: String, level: Int, period: SubscriptionPeriod, price: Int64,
        introductoryOffer: SubscriptionOffer? = nil
    ) {
        self.id = id
        self.groupId = groupId
        self.level = level
        self.period = period
        self.price = price
        self.introductoryOffer = introductoryOffer
    }

    /// The catalogue's auto-renewable product, or `nil` for any other.
    public init?(_ product: CatalogueProduct) {
        guard product.type == .autoRenewable, let details = product.subscription else { return nil }
        self.init(
            id: product.id, groupId: details.groupID, level: details.groupLevel, period: details.period,
            price: product.priceMilliunits, introductoryOffer: details.introductoryOffer)
    }
}

/// An offer on a period of a subscription, with Apple's field values.
public struct AppliedOffer: Equatable, Sendable, Codable {
    public var offerType: OfferType
    public var offerIdentifier: String?
    public var offerDiscountType: OfferDiscountType?
    /// The whole offer's duration, ISO 8601 (`P1W`, `P3M`).
    public var offerPeriod: String?
    /// What one period under the offer costs, in milliunits.
    public var price: Int64
    /// How long one period under the offer lasts, ISO 8601.
    public var period: String
    /// Periods under the offer still to come after this one (pay as you go).
    public var periodsRemaining: Int

    public init(
        offerType: OfferType, offerIdentifier: String? = nil, offerDiscountType: OfferDiscountType?,
        offerPeriod: String?,
        price: Int64, period: String, periodsRemaining: Int = 0
    ) {
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.offerDiscountType = offerDiscountType
        self.offerPeriod = offerPeriod
        self.price = price
        self.period = period
        self.periodsRemaining = periodsRemaining
    }

    /// The offer as a purchase applies it: a free trial or pay up front is one period of the whole length; pay as
    /// you go is `periodCount` periods.
    public init(_ offer: SubscriptionOffer) {
        let whole = offer.duration
        let discount = offer.paymentMode.appleDiscountType
        let payAsYouGo = offer.paymentMode == .payAsYouGo
        self.init(
            offerType: offer.kind.appleOfferType, offerIdentifier: offer.kind == .introductory ? nil : offer.id,
            offerDiscountType: discount, offerPeriod: whole.description,
            price: offer.paymentMode == .freeTrial ? 0 : offer.priceMilliunits,
            period: (payAsYouGo ? offer.period : whole).description,
            periodsRemaining: payAsYouGo ? max(0, offer.periodCount - 1) : 0)
    }
}

/// One subscription of the customer in one group, everything its renewal info and status are made from. A value:
/// ``SubscriptionLifecycle`` turns it and an event into the next state. Kept as JSON in the `subscriptions` table,
/// so new optional fields need no migration.
public struct SubscriptionState: Equatable, Sendable, Codable {
    public var originalTransactionId: String
    public var originalPurchaseDate: Int64
    public var groupId: String
    /// The product of the period in force.
    public var productId: String
    /// What the next renewal is of (another product after a downgrade).
    public var autoRenewProductId: String
    public var autoRenewEnabled: Bool
    public var status: SubscriptionStatus
    /// The transaction of the period in force (or the last one).
    public var latestTransactionId: String
    public var currentPeriodStart: Int64
    /// When the period in force ends.
    public var expiresDate: Int64
    /// The start of the run of periods the period in force belongs to, lapses of paid service shorter than
    /// ``SubscriptionLifecycle/recentStartLapseLimit`` ignored (Apple's `recentSubscriptionStartDate`).
    public var recentSubscriptionStartDate: Int64
    /// Apple's `expirationIntent`, once expired.
    public var expirationIntent: ExpirationIntent?
    /// What the next renewal costs, in milliunits of ``currency``.
    public var renewalPrice: Int64
    public var currency: String
    public var storefront: String
    public var storefrontId: String
    public var appAccountToken: String?
    /// The offer on the period in force.
    public var currentOffer: AppliedOffer?
    /// The offer the next renewal carries (the rest of a pay-as-you-go offer).
    public var nextOffer: AppliedOffer?
    /// Whether the customer ever had an introductory offer in this group (then no more).
    public var usedIntroductoryOffer: Bool
    /// Billing retry (set by the billing events; `nil` until then).
    public var isInBillingRetryPeriod: Bool?
    public var gracePeriodExpiresDate: Int64?
    /// Apple's `priceIncreaseStatus`.
    public var priceIncreaseStatus: PriceIncreaseStatus?
    /// The price a price increase moved the renewals of ``priceIncreaseProductId`` to (milliunits); it applies
    /// once consented (``priceIncreaseStatus`` consented) and stays for later renewals of that product.
    public var increasedPrice: Int64?
    public var priceIncreaseProductId: String?
    /// The renewal-date extensions the subscription got (Apple allows two in 365 days, 250 days in all).
    public var renewalExtensions: [RenewalExtensionRecord]?
    /// Shared with the customer through Family Sharing by the family member who bought it (``StoreFamilySharing``):
    /// its transactions are `FAMILY_SHARED`.
    public var isFamilyShared: Bool? = nil
    /// When the subscription was revoked (a refund of its period in force, or the end of Family Sharing): where
    /// its paid service stopped, for ``recentSubscriptionStartDate`` after a resubscribe. `nil` while not revoked
    /// (and in states saved before the field existed: the end of the period is used then).
    public var revocationDate: Int64? = nil
    /// How many times the subscription renewed since its purchase (its last subscribe); `nil` until the first
    /// renewal. Under the sandbox clock it stops renewing at ``SubscriptionLifecycle/renewalLimit``.
    public var renewalCount: Int? = nil

    /// When paid service last stopped, for a subscription that lapsed (expired or revoked): the end of its last
    /// period, or the revocation when that came first.
    public var lapseStart: Int64 {
        guard status == .revoked, let revocationDate else { return expiresDate }
        return min(revocationDate, expiresDate)
    }

    /// Whether the subscription gives access at `now`: active (or in its grace period) and not past its end.
    public func isEntitled(at now: Int64) -> Bool {
        switch status {
        case .active: expiresDate > now
        case .billingGracePeriod: (gracePeriodExpiresDate ?? expiresDate) > now
        case .expired, .billingRetry, .revoked, .unrecognized: false
        }
    }
}
