/// What kind of offer it is (`type` of a subscription's offer): StoreKit's `Product.SubscriptionOffer.OfferType`.
///
/// Decodes any value: one added later is ``unrecognized(_:)``, kept as sent.
public enum SubscriptionOfferType: WireStringEnum {
    /// `introductory`.
    case introductory
    /// `promotional`.
    case promotional
    /// An offer code. `code`.
    case code
    /// `winBack`.
    case winBack
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.introductory, .promotional, .code, .winBack]

    public var rawValue: String {
        switch self {
        case .introductory: "introductory"
        case .promotional: "promotional"
        case .code: "code"
        case .winBack: "winBack"
        case .unrecognized(let value): value
        }
    }
}
