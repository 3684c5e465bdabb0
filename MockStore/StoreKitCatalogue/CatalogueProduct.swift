/// One product of a `.storekit` catalogue (from `products`, `nonRenewingSubscriptions` or a subscription group).
public struct CatalogueProduct: Equatable, Sendable {
    public var id: String
    public var referenceName: String
    public var type: CatalogueProductType
    /// The price as written in the file, e.g. `5.00` (no currency: that follows the storefront).
    public var displayPrice: String
    /// The same price in milliunits (`5.00` → 5000), as signed transactions carry it.
    public var priceMilliunits: Int64
    public var familyShareable: Bool
    public var internalID: String?
    public var localizations: [ProductLocalization]
    /// With ``CatalogueProductType/autoRenewable``: its group, level, period and offers.
    public var subscription: SubscriptionDetails?

    public init(
        id: String, referenceName: String, type: CatalogueProductType, displayPrice: String, priceMilliunits: Int64,
        familyShareable: Bool = false, internalID: String? = nil, localizations: [ProductLocalization],
        subscription: SubscriptionDetails? = nil
    ) {
        self.id = id
        self.referenceName = referenceName
        self.type = type
        self.displayPrice = displayPrice
        self.priceMilliunits = priceMilliunits
        self.familyShareable = familyShareable
        self.internalID = internalID
        self.localizations = localizations
        self.subscription = subscription
    }

    /// The localization for `locale`: an exact match (`en_GB`), else the same language (`en`), else the first.
    /// `nil` only when the product has none.
    public func localization(for locale: String) -> ProductLocalization? {
        ProductLocalization.best(of: localizations, for: locale)
    }
}
