/// Why a transaction was refunded (`revocationReason`): Apple's `RevocationReason`.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum RevocationReason: WireIntEnum {
    /// An actual or perceived issue in the app. `1`.
    case refundedDueToIssue
    /// Another reason, e.g. an accidental purchase. `0`.
    case refundedForOtherReason
    /// A value none of the cases above has, as sent.
    case unrecognized(Int)

    public static let knownCases: [Self] = [.refundedDueToIssue, .refundedForOtherReason]

    public var rawValue: Int {
        switch self {
        case .refundedDueToIssue: 1
        case .refundedForOtherReason: 0
        case .unrecognized(let value): value
        }
    }
}
