/// Why a customer asked for a refund (`consumptionRequestReason` of a `CONSUMPTION_REQUEST`): Apple's
/// `ConsumptionRequestReason`.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum ConsumptionRequestReason: WireStringEnum {
    /// `UNINTENDED_PURCHASE`.
    case unintendedPurchase
    /// `FULFILLMENT_ISSUE`.
    case fulfillmentIssue
    /// `UNSATISFIED_WITH_PURCHASE`.
    case unsatisfiedWithPurchase
    /// `LEGAL`.
    case legal
    /// `OTHER`.
    case other
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [
        .unintendedPurchase, .fulfillmentIssue, .unsatisfiedWithPurchase, .legal, .other,
    ]

    public var rawValue: String {
        switch self {
        case .unintendedPurchase: "UNINTENDED_PURCHASE"
        case .fulfillmentIssue: "FULFILLMENT_ISSUE"
        case .unsatisfiedWithPurchase: "UNSATISFIED_WITH_PURCHASE"
        case .legal: "LEGAL"
        case .other: "OTHER"
        case .unrecognized(let value): value
        }
    }
}
