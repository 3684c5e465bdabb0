/// Whether the customer has answered a price increase (`priceIncreaseStatus`): Apple's
/// `PriceIncreaseStatus`.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum PriceIncreaseStatus: WireIntEnum {
    /// `0`.
    case customerHasNotResponded
    /// `1`.
    case customerConsentedOrWasNotifiedWithoutNeedingConsent
    /// A value none of the cases above has, as sent.
    case unrecognized(Int)

    public static let knownCases: [Self] = [
        .customerHasNotResponded, .customerConsentedOrWasNotifiedWithoutNeedingConsent,
    ]

    public var rawValue: Int {
        switch self {
        case .customerHasNotResponded: 0
        case .customerConsentedOrWasNotifiedWithoutNeedingConsent: 1
        case .unrecognized(let value): value
        }
    }
}
