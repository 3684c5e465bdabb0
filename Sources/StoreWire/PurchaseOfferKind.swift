/// What kind of offer a purchase names (`type` of a purchase's offer option): StoreKit's purchase options
/// `.promotionalOffer`, an offer code redeemed, and `.winBackOffer`.
///
/// Decodes any value: one added later is ``unrecognized(_:)``, kept as sent.
public enum PurchaseOfferKind: WireStringEnum {
    /// `promotional`.
    case promotional
    /// `offerCode`.
    case offerCode
    /// `winBack`.
    case winBack
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.promotional, .offerCode, .winBack]

    public var rawValue: String {
        switch self {
        case .promotional: "promotional"
        case .offerCode: "offerCode"
        case .winBack: "winBack"
        case .unrecognized(let value): value
        }
    }
}
