/// How a refunded transaction was revoked (`revocationType`): Apple's `RevocationType`.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum RevocationType: WireStringEnum {
    /// `REFUND_FULL`.
    case refundFull
    /// Part of it refunded: `revocationPercentage` says how much. `REFUND_PRORATED`.
    case refundProrated
    /// Family Sharing revoked. `FAMILY_REVOKE`.
    case familyRevoke
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.refundFull, .refundProrated, .familyRevoke]

    public var rawValue: String {
        switch self {
        case .refundFull: "REFUND_FULL"
        case .refundProrated: "REFUND_PRORATED"
        case .familyRevoke: "FAMILY_REVOKE"
        case .unrecognized(let value): value
        }
    }
}
