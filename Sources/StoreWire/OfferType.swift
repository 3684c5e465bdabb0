/// The kind of subscription offer (`offerType`): Apple's `OfferType`.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum OfferType: WireIntEnum {
    /// `1`.
    case introductoryOffer
    /// `2`.
    case promotionalOffer
    /// `3`.
    case offerCode
    /// `4`.
    case winBackOffer
    /// A value none of the cases above has, as sent.
    case unrecognized(Int)

    public static let knownCases: [Self] = [.introductoryOffer, .promotionalOffer, .offerCode, .winBackOffer]

    public var rawValue: Int {
        switch self {
        case .introductoryOffer: 1
        case .promotionalOffer: 2
        case .offerCode: 3
        case .winBackOffer: 4
        case .unrecognized(let value): value
        }
    }
}
