/// Why a transaction was made (`transactionReason`): Apple's `TransactionReason`.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum TransactionReason: WireStringEnum {
    /// The customer bought it (or upgraded, or redeemed an offer). `PURCHASE`.
    case purchase
    /// An auto-renewable subscription renewed. `RENEWAL`.
    case renewal
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.purchase, .renewal]

    public var rawValue: String {
        switch self {
        case .purchase: "PURCHASE"
        case .renewal: "RENEWAL"
        case .unrecognized(let value): value
        }
    }
}
