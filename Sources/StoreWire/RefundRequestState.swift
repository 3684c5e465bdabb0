/// Where a customer's refund request stands (the mock store's `refundRequest`; Apple's CONSUMPTION_REQUEST, then
/// REFUND or REFUND_DECLINED).
///
/// Decodes any value: one added later is ``unrecognized(_:)``, kept as sent.
public enum RefundRequestState: WireStringEnum {
    /// Asked for; waiting for a decision. `requested`.
    case requested
    /// Refused. `declined`.
    case declined
    /// Refunded. `granted`.
    case granted
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.requested, .declined, .granted]

    public var rawValue: String {
        switch self {
        case .requested: "requested"
        case .declined: "declined"
        case .granted: "granted"
        case .unrecognized(let value): value
        }
    }
}
