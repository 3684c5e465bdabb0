/// Why a subscription expired (`expirationIntent`): Apple's `ExpirationIntent`.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum ExpirationIntent: WireIntEnum {
    /// `1`.
    case customerCancelled
    /// `2`.
    case billingError
    /// `3`.
    case customerDidNotConsentToPriceIncrease
    /// `4`.
    case productNotAvailable
    /// `5`.
    case other
    /// A value none of the cases above has, as sent.
    case unrecognized(Int)

    public static let knownCases: [Self] = [
        .customerCancelled, .billingError, .customerDidNotConsentToPriceIncrease, .productNotAvailable, .other,
    ]

    public var rawValue: Int {
        switch self {
        case .customerCancelled: 1
        case .billingError: 2
        case .customerDidNotConsentToPriceIncrease: 3
        case .productNotAvailable: 4
        case .other: 5
        case .unrecognized(let value): value
        }
    }
}
