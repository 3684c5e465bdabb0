/// How a customer pays for an offer (`paymentMode`): StoreKit's `Product.SubscriptionOffer.PaymentMode`.
///
/// Decodes any value: one added later is ``unrecognized(_:)``, kept as sent.
public enum SubscriptionOfferPaymentMode: WireStringEnum {
    /// Nothing for the offer's periods. `freeTrial`.
    case freeTrial
    /// The offer price each period. `payAsYouGo`.
    case payAsYouGo
    /// The offer price once, for the whole offer. `payUpFront`.
    case payUpFront
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.freeTrial, .payAsYouGo, .payUpFront]

    public var rawValue: String {
        switch self {
        case .freeTrial: "freeTrial"
        case .payAsYouGo: "payAsYouGo"
        case .payUpFront: "payUpFront"
        case .unrecognized(let value): value
        }
    }
}
