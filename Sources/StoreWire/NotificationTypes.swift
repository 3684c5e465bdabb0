/// Apple's App Store Server Notifications V2 types and subtypes, as Apple's documentation lists them: what the mock
/// store checks a Get Notification History filter against, and `mockstore control wait-notification` a `--type`.
public enum NotificationTypes {
    /// Apple's notification types (`notificationType`) and the subtypes each may have.
    public static let subtypesByType: [String: Set<String>] = [
        "SUBSCRIBED": ["INITIAL_BUY", "RESUBSCRIBE"],
        "DID_CHANGE_RENEWAL_PREF": ["UPGRADE", "DOWNGRADE"],
        "DID_CHANGE_RENEWAL_STATUS": ["AUTO_RENEW_ENABLED", "AUTO_RENEW_DISABLED"],
        "OFFER_REDEEMED": ["INITIAL_BUY", "RESUBSCRIBE", "UPGRADE", "DOWNGRADE"],
        "DID_RENEW": ["BILLING_RECOVERY"],
        "EXPIRED": ["VOLUNTARY", "BILLING_RETRY", "PRICE_INCREASE", "PRODUCT_NOT_FOR_SALE"],
        "DID_FAIL_TO_RENEW": ["GRACE_PERIOD"],
        "GRACE_PERIOD_EXPIRED": [], "PRICE_INCREASE": ["PENDING", "ACCEPTED"], "REFUND": [], "REFUND_DECLINED": [],
        "CONSUMPTION_REQUEST": [], "RENEWAL_EXTENDED": [], "REVOKE": [], "TEST": [],
        "RENEWAL_EXTENSION": ["SUMMARY", "FAILURE"], "REFUND_REVERSED": [], "EXTERNAL_PURCHASE_TOKEN": ["UNREPORTED"],
        "ONE_TIME_CHARGE": [], "RESCIND_CONSENT": [], "METADATA_UPDATE": [], "MIGRATION": [], "PRICE_CHANGE": [],
    ]
}
