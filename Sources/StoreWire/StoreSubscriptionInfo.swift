/// StoreKit's `Product.SubscriptionInfo` as the device API returns it in a product of type `autoRenewable`
/// (`GET /storekit/v1/products`).
///
/// Enumerations travel as StoreKit's names (`month`, `freeTrial`, `winBack`, …) in plain strings, so a client
/// keeps a value it does not know rather than failing on it. Whether the customer may still take the
/// introductory offer (StoreKit's `isEligibleForIntroOffer`) depends on their history, not on the catalogue, and
/// is not part of this body.
public struct StoreSubscriptionInfo: Codable, Sendable, Equatable {
    /// The group's id (`subscriptionGroupID`).
    public var subscriptionGroupID: String
    /// How long one renewal lasts.
    public var subscriptionPeriod: StoreSubscriptionPeriod
    /// The introductory offer, if the subscription has one (whoever asks: eligibility is not checked here).
    public var introductoryOffer: StoreSubscriptionOffer?
    public var promotionalOffers: [StoreSubscriptionOffer]
    public var winBackOffers: [StoreSubscriptionOffer]
    /// The level in the group: 1 is the highest service.
    public var groupLevel: Int
    /// The group's display name in the locale in force (its reference name when it has no localization).
    public var groupDisplayName: String

    public init(
        subscriptionGroupID: String, subscriptionPeriod: StoreSubscriptionPeriod,
        introductoryOffer: StoreSubscriptionOffer? = nil, promotionalOffers: [StoreSubscriptionOffer] = [],
        winBackOffers: [StoreSubscriptionOffer] = [], groupLevel: Int, groupDisplayName: String
    ) {
        self.subscriptionGroupID = subscriptionGroupID
        self.subscriptionPeriod = subscriptionPeriod
        self.introductoryOffer = introductoryOffer
        self.promotionalOffers = promotionalOffers
        self.winBackOffers = winBackOffers
        self.groupLevel = groupLevel
        self.groupDisplayName = groupDisplayName
    }

    private enum CodingKeys: String, CodingKey {
        case subscriptionGroupID, subscriptionPeriod, introductoryOffer, promotionalOffers, winBackOffers
        case groupLevel, groupDisplayName
    }

    /// Offer lists may be missing (a store that has none to show, or predates win-back offers): empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        subscriptionGroupID = try container.decode(String.self, forKey: .subscriptionGroupID)
        subscriptionPeriod = try container.decode(StoreSubscriptionPeriod.self, forKey: .subscriptionPeriod)
        introductoryOffer = try container.decodeIfPresent(StoreSubscriptionOffer.self, forKey: .introductoryOffer)
        promotionalOffers =
            try container.decodeIfPresent([StoreSubscriptionOffer].self, forKey: .promotionalOffers) ?? []
        winBackOffers = try container.decodeIfPresent([StoreSubscriptionOffer].self, forKey: .winBackOffers) ?? []
        groupLevel = try container.decode(Int.self, forKey: .groupLevel)
        groupDisplayName = try container.decodeIfPresent(String.self, forKey: .groupDisplayName) ?? ""
    }
}

/// StoreKit's `Product.SubscriptionPeriod`: `value` of `unit` (`day`, `week`, `month` or `year`).
public struct StoreSubscriptionPeriod: Codable, Sendable, Equatable {
    public var unit: SubscriptionPeriodUnit
    public var value: Int

    public init(unit: SubscriptionPeriodUnit, value: Int) {
        self.unit = unit
        self.value = value
    }
}

/// StoreKit's `Product.SubscriptionOffer`.
public struct StoreSubscriptionOffer: Codable, Sendable, Equatable {
    /// The offer's identifier; `nil` for an introductory offer.
    public var id: String?
    /// `introductory`, `promotional` or `winBack` (StoreKit's `Product.SubscriptionOffer.OfferType`).
    public var type: SubscriptionOfferType
    /// The price as a decimal string in the storefront's currency, e.g. `1.99` (`0` for a free trial).
    public var price: String
    /// The price as the store shows it, e.g. `£1.99`.
    public var displayPrice: String
    /// The length of one offer period.
    public var period: StoreSubscriptionPeriod
    /// How many periods the offer lasts.
    public var periodCount: Int
    /// `freeTrial`, `payAsYouGo` or `payUpFront` (StoreKit's `Product.SubscriptionOffer.PaymentMode`).
    public var paymentMode: SubscriptionOfferPaymentMode

    public init(
        id: String?, type: SubscriptionOfferType, price: String, displayPrice: String, period: StoreSubscriptionPeriod,
        periodCount: Int, paymentMode: SubscriptionOfferPaymentMode
    ) {
        self.id = id
        self.type = type
        self.price = price
        self.displayPrice = displayPrice
        self.period = period
        self.periodCount = periodCount
        self.paymentMode = paymentMode
    }
}
