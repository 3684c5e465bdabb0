/// Apple's App Store Server Notifications V2 types and subtypes, as Apple's documentation lists them: what the mock
/// store checks a Get Notification History filter against, and `mockstore control wait-notification` a `--type`.
public enum NotificationTypes {
    /// Apple's notification types (`notificationType`) and the subtypes each may have.
    public static let subtypesByType: [NotificationType: Set<NotificationSubtype>] = [
        .subscribed: [.initialBuy, .resubscribe],
        .didChangeRenewalPref: [.upgrade, .downgrade],
        .didChangeRenewalStatus: [.autoRenewEnabled, .autoRenewDisabled],
        .offerRedeemed: [.initialBuy, .resubscribe, .upgrade, .downgrade],
        .didRenew: [.billingRecovery],
        .expired: [.voluntary, .billingRetry, .priceIncrease, .productNotForSale],
        .didFailToRenew: [.gracePeriod],
        .gracePeriodExpired: [], .priceIncrease: [.pending, .accepted], .refund: [], .refundDeclined: [],
        .consumptionRequest: [], .renewalExtended: [], .revoke: [], .test: [],
        .renewalExtension: [.summary, .failure], .refundReversed: [], .externalPurchaseToken: [.unreported],
        .oneTimeCharge: [], .rescindConsent: [], .metadataUpdate: [], .migration: [], .priceChange: [],
    ]
}
