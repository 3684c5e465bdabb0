/// A notification's `subtype`: Apple's `Subtype`.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum NotificationSubtype: WireStringEnum {
    /// `INITIAL_BUY`.
    case initialBuy
    /// `RESUBSCRIBE`.
    case resubscribe
    /// `DOWNGRADE`.
    case downgrade
    /// `UPGRADE`.
    case upgrade
    /// `AUTO_RENEW_ENABLED`.
    case autoRenewEnabled
    /// `AUTO_RENEW_DISABLED`.
    case autoRenewDisabled
    /// `VOLUNTARY`.
    case voluntary
    /// `BILLING_RETRY`.
    case billingRetry
    /// `PRICE_INCREASE`.
    case priceIncrease
    /// `GRACE_PERIOD`.
    case gracePeriod
    /// `PENDING`.
    case pending
    /// `ACCEPTED`.
    case accepted
    /// `BILLING_RECOVERY`.
    case billingRecovery
    /// `PRODUCT_NOT_FOR_SALE`.
    case productNotForSale
    /// `SUMMARY`.
    case summary
    /// `FAILURE`.
    case failure
    /// `UNREPORTED`.
    case unreported
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [
        .initialBuy, .resubscribe, .downgrade, .upgrade, .autoRenewEnabled, .autoRenewDisabled, .voluntary,
        .billingRetry, .priceIncrease, .gracePeriod, .pending, .accepted, .billingRecovery, .productNotForSale,
        .summary, .failure, .unreported,
    ]

    public var rawValue: String {
        switch self {
        case .initialBuy: "INITIAL_BUY"
        case .resubscribe: "RESUBSCRIBE"
        case .downgrade: "DOWNGRADE"
        case .upgrade: "UPGRADE"
        case .autoRenewEnabled: "AUTO_RENEW_ENABLED"
        case .autoRenewDisabled: "AUTO_RENEW_DISABLED"
        case .voluntary: "VOLUNTARY"
        case .billingRetry: "BILLING_RETRY"
        case .priceIncrease: "PRICE_INCREASE"
        case .gracePeriod: "GRACE_PERIOD"
        case .pending: "PENDING"
        case .accepted: "ACCEPTED"
        case .billingRecovery: "BILLING_RECOVERY"
        case .productNotForSale: "PRODUCT_NOT_FOR_SALE"
        case .summary: "SUMMARY"
        case .failure: "FAILURE"
        case .unreported: "UNREPORTED"
        case .unrecognized(let value): value
        }
    }
}
