/// A product's type as the device API's product list gives it (`StoreProductInfo/type`): StoreKit 2's
/// `Product.ProductType` raw names.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum StoreKitProductType: WireStringEnum {
    /// `consumable`.
    case consumable
    /// `nonConsumable`.
    case nonConsumable
    /// `nonRenewable`.
    case nonRenewable
    /// `autoRenewable`.
    case autoRenewable
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.consumable, .nonConsumable, .nonRenewable, .autoRenewable]

    public var rawValue: String {
        switch self {
        case .consumable: "consumable"
        case .nonConsumable: "nonConsumable"
        case .nonRenewable: "nonRenewable"
        case .autoRenewable: "autoRenewable"
        case .unrecognized(let value): value
        }
    }
}
