/// Why StoreKit shows a message (`reason` of a device API message): StoreKit's `Message.Reason`.
///
/// Decodes any value: one added later is ``unrecognized(_:)``, kept as sent.
public enum MessageReason: WireStringEnum {
    /// A subscription's payment failed. `billingIssue`.
    case billingIssue
    /// A price increase the customer must agree to. `priceIncreaseConsent`.
    case priceIncreaseConsent
    /// Any other message. `generic`.
    case generic
    /// A win-back offer for a lapsed subscription. `winBackOffer`.
    case winBackOffer
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.billingIssue, .priceIncreaseConsent, .generic, .winBackOffer]

    public var rawValue: String {
        switch self {
        case .billingIssue: "billingIssue"
        case .priceIncreaseConsent: "priceIncreaseConsent"
        case .generic: "generic"
        case .winBackOffer: "winBackOffer"
        case .unrecognized(let value): value
        }
    }
}
