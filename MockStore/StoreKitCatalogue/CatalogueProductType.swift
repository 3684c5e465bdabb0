import StoreWire

/// The kinds of product a `.storekit` catalogue sells that the mock store can sell.
public enum CatalogueProductType: String, Sendable, CaseIterable {
    case consumable
    case nonConsumable
    case nonRenewingSubscription
    /// An auto-renewable subscription (in a `.storekit` file's `subscriptionGroups`).
    case autoRenewable

    /// The `type` string in a `.storekit` file.
    public var fileName: String {
        switch self {
        case .consumable: "Consumable"
        case .nonConsumable: "NonConsumable"
        case .nonRenewingSubscription: "NonRenewingSubscription"
        case .autoRenewable: "RecurringSubscription"
        }
    }

    /// StoreKit 2's `Product.ProductType`, as the device API returns it.
    public var storeKitType: StoreKitProductType {
        switch self {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .nonRenewingSubscription: .nonRenewable
        case .autoRenewable: .autoRenewable
        }
    }

    /// The `type` of a signed transaction for this product.
    public var transactionType: ProductType {
        switch self {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .nonRenewingSubscription: .nonRenewingSubscription
        case .autoRenewable: .autoRenewableSubscription
        }
    }

    /// Whether one purchase may buy several (StoreKit's `quantity` option).
    public var allowsQuantity: Bool { self == .consumable }

    init?(fileName: String) {
        guard let type = Self.allCases.first(where: { $0.fileName == fileName }) else { return nil }
        self = type
    }
}
