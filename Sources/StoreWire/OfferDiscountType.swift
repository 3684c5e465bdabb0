/// How an offer is paid (`offerDiscountType`): Apple's `OfferDiscountType`.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum OfferDiscountType: WireStringEnum {
    /// `FREE_TRIAL`.
    case freeTrial
    /// `PAY_AS_YOU_GO`.
    case payAsYouGo
    /// `PAY_UP_FRONT`.
    case payUpFront
    /// `ONE_TIME`.
    case oneTime
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.freeTrial, .payAsYouGo, .payUpFront, .oneTime]

    public var rawValue: String {
        switch self {
        case .freeTrial: "FREE_TRIAL"
        case .payAsYouGo: "PAY_AS_YOU_GO"
        case .payUpFront: "PAY_UP_FRONT"
        case .oneTime: "ONE_TIME"
        case .unrecognized(let value): value
        }
    }
}
