/// An App Store Server Notifications V2 `notificationType`: Apple's `NotificationTypeV2`.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum NotificationType: WireStringEnum {
    /// `SUBSCRIBED`.
    case subscribed
    /// `DID_CHANGE_RENEWAL_PREF`.
    case didChangeRenewalPref
    /// `DID_CHANGE_RENEWAL_STATUS`.
    case didChangeRenewalStatus
    /// `OFFER_REDEEMED`.
    case offerRedeemed
    /// `DID_RENEW`.
    case didRenew
    /// `EXPIRED`.
    case expired
    /// `DID_FAIL_TO_RENEW`.
    case didFailToRenew
    /// `GRACE_PERIOD_EXPIRED`.
    case gracePeriodExpired
    /// `PRICE_INCREASE`.
    case priceIncrease
    /// `REFUND`.
    case refund
    /// `REFUND_DECLINED`.
    case refundDeclined
    /// `CONSUMPTION_REQUEST`.
    case consumptionRequest
    /// `RENEWAL_EXTENDED`.
    case renewalExtended
    /// `REVOKE`.
    case revoke
    /// `TEST`.
    case test
    /// `RENEWAL_EXTENSION`.
    case renewalExtension
    /// `REFUND_REVERSED`.
    case refundReversed
    /// `EXTERNAL_PURCHASE_TOKEN`.
    case externalPurchaseToken
    /// `ONE_TIME_CHARGE`.
    case oneTimeCharge
    /// `RESCIND_CONSENT`.
    case rescindConsent
    /// `METADATA_UPDATE`.
    case metadataUpdate
    /// `MIGRATION`.
    case migration
    /// `PRICE_CHANGE`.
    case priceChange
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [
        .subscribed, .didChangeRenewalPref, .didChangeRenewalStatus, .offerRedeemed, .didRenew, .expired,
        .didFailToRenew, .gracePeriodExpired, .priceIncrease, .refund, .refundDeclined, .consumptionRequest,
        .renewalExtended, .revoke, .test, .renewalExtension, .refundReversed, .externalPurchaseToken, .oneTimeCharge,
        .rescindConsent, .metadataUpdate, .migration, .priceChange,
    ]

    public var rawValue: String {
        switch self {
        case .subscribed: "SUBSCRIBED"
        case .didChangeRenewalPref: "DID_CHANGE_RENEWAL_PREF"
        case .didChangeRenewalStatus: "DID_CHANGE_RENEWAL_STATUS"
        case .offerRedeemed: "OFFER_REDEEMED"
        case .didRenew: "DID_RENEW"
        case .expired: "EXPIRED"
        case .didFailToRenew: "DID_FAIL_TO_RENEW"
        case .gracePeriodExpired: "GRACE_PERIOD_EXPIRED"
        case .priceIncrease: "PRICE_INCREASE"
        case .refund: "REFUND"
        case .refundDeclined: "REFUND_DECLINED"
        case .consumptionRequest: "CONSUMPTION_REQUEST"
        case .renewalExtended: "RENEWAL_EXTENDED"
        case .revoke: "REVOKE"
        case .test: "TEST"
        case .renewalExtension: "RENEWAL_EXTENSION"
        case .refundReversed: "REFUND_REVERSED"
        case .externalPurchaseToken: "EXTERNAL_PURCHASE_TOKEN"
        case .oneTimeCharge: "ONE_TIME_CHARGE"
        case .rescindConsent: "RESCIND_CONSENT"
        case .metadataUpdate: "METADATA_UPDATE"
        case .migration: "MIGRATION"
        case .priceChange: "PRICE_CHANGE"
        case .unrecognized(let value): value
        }
    }
}
