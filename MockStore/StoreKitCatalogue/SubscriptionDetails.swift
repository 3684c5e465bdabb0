import StoreWire

/// A length of subscription time, as StoreKit's `Product.SubscriptionPeriod` and a `.storekit` file's
/// `recurringSubscriptionPeriod` (ISO 8601: `P1W`, `P1M`, `P1Y`, `P3D`) give it.
public struct SubscriptionPeriod: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// StoreKit's `Product.SubscriptionPeriod.Unit`.
    public enum Unit: String, Sendable, CaseIterable {
        case day
        case week
        case month
        case year

        /// The unit as the device API sends it.
        public var wire: SubscriptionPeriodUnit {
            switch self {
            case .day: .day
            case .week: .week
            case .month: .month
            case .year: .year
            }
        }

        /// The ISO 8601 designator (`D`, `W`, `M`, `Y`).
        public var designator: Character {
            switch self {
            case .day: "D"
            case .week: "W"
            case .month: "M"
            case .year: "Y"
            }
        }
    }

    public var value: Int
    public var unit: Unit

    public init(value: Int, unit: Unit) {
        self.value = value
        self.unit = unit
    }

    /// `P1M`, `P3D`, …
    public var description: String { "P\(value)\(unit.designator)" }

    /// `"P1M"` → one month; `nil` for anything that is not `P` + a positive whole number + one of `D W M Y`.
    public init?(iso8601 text: String) {
        guard text.count >= 3, text.first == "P", let last = text.last,
            let unit = Unit.allCases.first(where: { $0.designator == last })
        else { return nil }
        let digits = text.dropFirst().dropLast()
        guard digits.allSatisfy({ ("0"..."9").contains($0) }), let value = Int(digits), value > 0 else { return nil }
        self.init(value: value, unit: unit)
    }
}

/// How a customer pays for a subscription offer (StoreKit's `Product.SubscriptionOffer.PaymentMode`).
public enum SubscriptionPaymentMode: String, Sendable, CaseIterable {
    /// Nothing for `periodCount` periods (`.storekit`: `"free"`).
    case freeTrial
    /// The offer price each period, for `periodCount` periods (`.storekit`: `"payAsYouGo"`).
    case payAsYouGo
    /// The offer price once, for the whole offer (`.storekit`: `"payUpFront"`).
    case payUpFront
}

extension SubscriptionPaymentMode {
    /// The payment mode as the device API sends it.
    public var wire: SubscriptionOfferPaymentMode {
        switch self {
        case .freeTrial: .freeTrial
        case .payAsYouGo: .payAsYouGo
        case .payUpFront: .payUpFront
        }
    }

    /// Apple's `offerDiscountType` in signed transactions and renewal info.
    public var appleDiscountType: OfferDiscountType {
        switch self {
        case .freeTrial: .freeTrial
        case .payAsYouGo: .payAsYouGo
        case .payUpFront: .payUpFront
        }
    }
}

/// Who may redeem an offer code (a `.storekit` code offer's `eligibility`).
public enum OfferCodeEligibility: String, Sendable, CaseIterable {
    /// Customers who never subscribed to the group.
    case new
    /// Customers subscribed now.
    case existing
    /// Customers whose subscription lapsed.
    case expired
}

/// What kind of offer it is (StoreKit's `Product.SubscriptionOffer.OfferType`; Apple's `offerType` in a signed
/// transaction is 1 introductory, 2 promotional, 3 offer code, 4 win-back).
public enum SubscriptionOfferKind: String, Sendable, CaseIterable {
    case introductory
    case promotional
    case offerCode
    case winBack

    /// Apple's `offerType` number in signed transactions and renewal info.
    public var appleOfferType: OfferType {
        switch self {
        case .introductory: .introductoryOffer
        case .promotional: .promotionalOffer
        case .offerCode: .offerCode
        case .winBack: .winBackOffer
        }
    }
}

/// One offer on an auto-renewable subscription.
public struct SubscriptionOffer: Equatable, Sendable {
    public var kind: SubscriptionOfferKind
    /// The offer's identifier (`offerID` or the offer code's reference); `nil` for an introductory offer.
    public var id: String?
    public var paymentMode: SubscriptionPaymentMode
    /// The length of one offer period.
    public var period: SubscriptionPeriod
    /// How many periods the offer lasts (1 for pay up front and most free trials).
    public var periodCount: Int
    /// The price as written in the file (`"0.99"`; `"0"` or `"0.00"` for a free trial).
    public var displayPrice: String
    /// The same price in milliunits.
    public var priceMilliunits: Int64
    /// The offer's reference name in the file, if it has one.
    public var referenceName: String?
    /// Offer codes: who may redeem the code (every kind of customer when the file does not say); empty for
    /// the other kinds.
    public var codeEligibility: Set<OfferCodeEligibility>
    /// Offer codes: whether the code can be redeemed on top of another offer (`isStackable`).
    public var isStackable: Bool

    public init(
        kind: SubscriptionOfferKind, id: String? = nil, paymentMode: SubscriptionPaymentMode,
        period: SubscriptionPeriod, periodCount: Int, displayPrice: String, priceMilliunits: Int64,
        referenceName: String? = nil, codeEligibility: Set<OfferCodeEligibility> = [], isStackable: Bool = false
    ) {
        self.kind = kind
        self.id = id
        self.paymentMode = paymentMode
        self.period = period
        self.periodCount = periodCount
        self.displayPrice = displayPrice
        self.priceMilliunits = priceMilliunits
        self.referenceName = referenceName
        self.codeEligibility = codeEligibility
        self.isStackable = isStackable
    }

    /// How long the whole offer lasts: ``period`` × ``periodCount`` (`P1M` × 3 → `P3M`).
    public var duration: SubscriptionPeriod {
        SubscriptionPeriod(value: period.value * periodCount, unit: period.unit)
    }
}

/// What only an auto-renewable subscription has: its group, its level in the group, its period and its offers.
public struct SubscriptionDetails: Equatable, Sendable {
    /// The group's `id` in the `.storekit` file (Apple's `subscriptionGroupIdentifier`).
    public var groupID: String
    /// The level within the group: 1 is the highest service (`groupNumber` in the file). Moving to a lower
    /// number is an upgrade, to a higher one a downgrade, to the same one a crossgrade.
    public var groupLevel: Int
    /// How long one renewal lasts (`recurringSubscriptionPeriod`).
    public var period: SubscriptionPeriod
    /// The introductory offer (free trial, pay as you go, pay up front), if any.
    public var introductoryOffer: SubscriptionOffer?
    /// Promotional offers, by `id`.
    public var promotionalOffers: [SubscriptionOffer]
    /// Offer codes, by `id` (a code's reference name).
    public var offerCodes: [SubscriptionOffer]
    /// Win-back offers, by `id`.
    public var winBackOffers: [SubscriptionOffer]

    public init(
        groupID: String, groupLevel: Int, period: SubscriptionPeriod, introductoryOffer: SubscriptionOffer? = nil,
        promotionalOffers: [SubscriptionOffer] = [], offerCodes: [SubscriptionOffer] = [],
        winBackOffers: [SubscriptionOffer] = []
    ) {
        self.groupID = groupID
        self.groupLevel = groupLevel
        self.period = period
        self.introductoryOffer = introductoryOffer
        self.promotionalOffers = promotionalOffers
        self.offerCodes = offerCodes
        self.winBackOffers = winBackOffers
    }

    /// The offer of `kind` with this `id` (introductory offers have none).
    public func offer(kind: SubscriptionOfferKind, id: String?) -> SubscriptionOffer? {
        switch kind {
        case .introductory: introductoryOffer
        case .promotional: promotionalOffers.first { $0.id == id }
        case .offerCode: offerCodes.first { $0.id == id }
        case .winBack: winBackOffers.first { $0.id == id }
        }
    }
}

/// A subscription group of a `.storekit` file: subscriptions a customer holds one of at a time.
public struct SubscriptionGroup: Equatable, Sendable {
    /// The group's `id` (Apple's `subscriptionGroupIdentifier`).
    public var id: String
    /// The group's reference name.
    public var name: String
    /// The group's display names by locale.
    public var localizations: [ProductLocalization]
    /// The ids of the group's subscriptions, in file order (each is in ``StoreKitConfiguration/products``).
    public var productIDs: [String]

    public init(id: String, name: String, localizations: [ProductLocalization] = [], productIDs: [String]) {
        self.id = id
        self.name = name
        self.localizations = localizations
        self.productIDs = productIDs
    }

    /// The group's name as StoreKit's `groupDisplayName` shows it in `locale`: its localized display name,
    /// else its reference name.
    public func displayName(for locale: String) -> String {
        guard let localized = ProductLocalization.best(of: localizations, for: locale), !localized.displayName.isEmpty
        else { return name }
        return localized.displayName
    }
}
