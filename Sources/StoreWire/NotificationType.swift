/// An App Store Server Notifications V2 `notificationType`, typed: each of Apple's values is a static member, so a
/// misspelt type is a compile error, and a value Apple adds later is kept as sent (`NotificationType("NEW_TYPE")`).
public struct NotificationType: WireString {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let subscribed = NotificationType("SUBSCRIBED")
    public static let didChangeRenewalPreference = NotificationType("DID_CHANGE_RENEWAL_PREF")
    public static let didChangeRenewalStatus = NotificationType("DID_CHANGE_RENEWAL_STATUS")
    public static let offerRedeemed = NotificationType("OFFER_REDEEMED")
    public static let didRenew = NotificationType("DID_RENEW")
    public static let expired = NotificationType("EXPIRED")
    public static let didFailToRenew = NotificationType("DID_FAIL_TO_RENEW")
    public static let gracePeriodExpired = NotificationType("GRACE_PERIOD_EXPIRED")
    public static let priceIncrease = NotificationType("PRICE_INCREASE")
    public static let refund = NotificationType("REFUND")
    public static let refundDeclined = NotificationType("REFUND_DECLINED")
    public static let consumptionRequest = NotificationType("CONSUMPTION_REQUEST")
    public static let renewalExtended = NotificationType("RENEWAL_EXTENDED")
    public static let revoke = NotificationType("REVOKE")
    public static let test = NotificationType("TEST")
    public static let renewalExtension = NotificationType("RENEWAL_EXTENSION")
    public static let refundReversed = NotificationType("REFUND_REVERSED")
    public static let externalPurchaseToken = NotificationType("EXTERNAL_PURCHASE_TOKEN")
    public static let oneTimeCharge = NotificationType("ONE_TIME_CHARGE")
    public static let rescindConsent = NotificationType("RESCIND_CONSENT")
    public static let metadataUpdate = NotificationType("METADATA_UPDATE")
    public static let migration = NotificationType("MIGRATION")
    public static let priceChange = NotificationType("PRICE_CHANGE")

    /// Whether Apple documents the type (``NotificationTypes/subtypesByType``).
    public var isKnown: Bool { NotificationTypes.subtypesByType[rawValue] != nil }

}

/// A notification's `subtype`, typed the same way as ``NotificationType``.
public struct NotificationSubtype: WireString {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let initialBuy = NotificationSubtype("INITIAL_BUY")
    public static let resubscribe = NotificationSubtype("RESUBSCRIBE")
    public static let downgrade = NotificationSubtype("DOWNGRADE")
    public static let upgrade = NotificationSubtype("UPGRADE")
    public static let autoRenewEnabled = NotificationSubtype("AUTO_RENEW_ENABLED")
    public static let autoRenewDisabled = NotificationSubtype("AUTO_RENEW_DISABLED")
    public static let voluntary = NotificationSubtype("VOLUNTARY")
    public static let billingRetry = NotificationSubtype("BILLING_RETRY")
    public static let priceIncrease = NotificationSubtype("PRICE_INCREASE")
    public static let gracePeriod = NotificationSubtype("GRACE_PERIOD")
    public static let pending = NotificationSubtype("PENDING")
    public static let accepted = NotificationSubtype("ACCEPTED")
    public static let billingRecovery = NotificationSubtype("BILLING_RECOVERY")
    public static let productNotForSale = NotificationSubtype("PRODUCT_NOT_FOR_SALE")
    public static let summary = NotificationSubtype("SUMMARY")
    public static let failure = NotificationSubtype("FAILURE")
    public static let unreported = NotificationSubtype("UNREPORTED")

}

/// A value Apple sends as a string, typed: its known values are static members, and any other is kept as sent. It is
/// coded as the bare string.
public protocol WireString: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible
where RawValue == String {
    init(rawValue: String)
}

extension WireString {
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}
