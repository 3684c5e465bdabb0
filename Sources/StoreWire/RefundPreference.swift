/// What the developer would like done with a refund request (`refundPreference` of Send Consumption
/// Information, version 2): Apple's `RefundPreference`.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum RefundPreference: WireStringEnum {
    /// `DECLINE`.
    case decline
    /// `GRANT_FULL`.
    case grantFull
    /// `GRANT_PRORATED`.
    case grantProrated
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.decline, .grantFull, .grantProrated]

    public var rawValue: String {
        switch self {
        case .decline: "DECLINE"
        case .grantFull: "GRANT_FULL"
        case .grantProrated: "GRANT_PRORATED"
        case .unrecognized(let value): value
        }
    }
}
