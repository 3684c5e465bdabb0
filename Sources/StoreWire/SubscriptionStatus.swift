/// Where an auto-renewable subscription stands (`status` of a status answer or a notification's `data`):
/// Apple's `Status`.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum SubscriptionStatus: WireIntEnum {
    /// `1`.
    case active
    /// `2`.
    case expired
    /// `3`.
    case billingRetry
    /// `4`.
    case billingGracePeriod
    /// `5`.
    case revoked
    /// A value none of the cases above has, as sent.
    case unrecognized(Int)

    public static let knownCases: [Self] = [.active, .expired, .billingRetry, .billingGracePeriod, .revoked]

    public var rawValue: Int {
        switch self {
        case .active: 1
        case .expired: 2
        case .billingRetry: 3
        case .billingGracePeriod: 4
        case .revoked: 5
        case .unrecognized(let value): value
        }
    }
}
