/// A signed transaction's `type`: Apple's `ProductType`.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum ProductType: WireStringEnum {
    /// `Auto-Renewable Subscription`.
    case autoRenewableSubscription
    /// `Non-Consumable`.
    case nonConsumable
    /// `Consumable`.
    case consumable
    /// `Non-Renewing Subscription`.
    case nonRenewingSubscription
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [
        .autoRenewableSubscription, .nonConsumable, .consumable, .nonRenewingSubscription,
    ]

    public var rawValue: String {
        switch self {
        case .autoRenewableSubscription: "Auto-Renewable Subscription"
        case .nonConsumable: "Non-Consumable"
        case .consumable: "Consumable"
        case .nonRenewingSubscription: "Non-Renewing Subscription"
        case .unrecognized(let value): value
        }
    }
}
