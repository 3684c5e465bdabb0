/// Whether the content of a consumable reached the customer (`deliveryStatus` of Send Consumption
/// Information, version 2): Apple's `DeliveryStatus`.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum DeliveryStatus: WireStringEnum {
    /// `DELIVERED`.
    case delivered
    /// `UNDELIVERED_QUALITY_ISSUE`.
    case undeliveredQualityIssue
    /// `UNDELIVERED_WRONG_ITEM`.
    case undeliveredWrongItem
    /// `UNDELIVERED_SERVER_OUTAGE`.
    case undeliveredServerOutage
    /// `UNDELIVERED_OTHER`.
    case undeliveredOther
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [
        .delivered, .undeliveredQualityIssue, .undeliveredWrongItem, .undeliveredServerOutage, .undeliveredOther,
    ]

    public var rawValue: String {
        switch self {
        case .delivered: "DELIVERED"
        case .undeliveredQualityIssue: "UNDELIVERED_QUALITY_ISSUE"
        case .undeliveredWrongItem: "UNDELIVERED_WRONG_ITEM"
        case .undeliveredServerOutage: "UNDELIVERED_SERVER_OUTAGE"
        case .undeliveredOther: "UNDELIVERED_OTHER"
        case .unrecognized(let value): value
        }
    }
}
