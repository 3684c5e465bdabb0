/// A subscription's state as the device API names it (`state`): StoreKit's
/// `Product.SubscriptionInfo.RenewalState`.
///
/// Decodes any value: one added later is ``unrecognized(_:)``, kept as sent.
public enum SubscriptionRenewalState: WireStringEnum {
    /// `subscribed`.
    case subscribed
    /// `expired`.
    case expired
    /// `inBillingRetryPeriod`.
    case inBillingRetryPeriod
    /// `inGracePeriod`.
    case inGracePeriod
    /// `revoked`.
    case revoked
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.subscribed, .expired, .inBillingRetryPeriod, .inGracePeriod, .revoked]

    public var rawValue: String {
        switch self {
        case .subscribed: "subscribed"
        case .expired: "expired"
        case .inBillingRetryPeriod: "inBillingRetryPeriod"
        case .inGracePeriod: "inGracePeriod"
        case .revoked: "revoked"
        case .unrecognized(let value): value
        }
    }
}
