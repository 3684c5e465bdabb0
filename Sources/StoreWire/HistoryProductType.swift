/// A kind of product a Get Transaction History request keeps (`productType`): Apple's
/// `TransactionHistoryRequest.ProductType`, whose names are not a transaction's `type`'s.
///
/// Decodes any value: one the store cannot read is ``unrecognized(_:)``, kept as sent.
public enum HistoryProductType: WireStringEnum {
    /// `AUTO_RENEWABLE`.
    case autoRenewable
    /// `NON_RENEWABLE`.
    case nonRenewable
    /// `CONSUMABLE`.
    case consumable
    /// `NON_CONSUMABLE`.
    case nonConsumable
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.autoRenewable, .nonRenewable, .consumable, .nonConsumable]

    public var rawValue: String {
        switch self {
        case .autoRenewable: "AUTO_RENEWABLE"
        case .nonRenewable: "NON_RENEWABLE"
        case .consumable: "CONSUMABLE"
        case .nonConsumable: "NON_CONSUMABLE"
        case .unrecognized(let value): value
        }
    }
}
