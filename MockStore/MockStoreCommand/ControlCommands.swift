import OptionParsing

/// Every `mockstore control` command, in the order `mockstore control --help` lists them: each declared once, beside
/// what it sends (one file an area: transactions, settings, customers, subscriptions, billing, offers).
enum ControlCommands {
    static let all: [ControlCommand] =
        [
            TransactionControls.reset, CustomerControls.customer, TransactionControls.clear,
            TransactionControls.transactions, TransactionControls.delete, TransactionControls.buy,
            SettingsControls.askToBuy, TransactionControls.approve, TransactionControls.decline,
            SettingsControls.interrupted, TransactionControls.resolve,
        ]
        + [
            TransactionControls.refund, TransactionControls.requestRefund, TransactionControls.declineRefund,
            TransactionControls.reverseRefund,
        ]
        + [
            SettingsControls.storefront, SettingsControls.locale, SettingsControls.settings, SettingsControls.fail,
            SettingsControls.clearFailure, SettingsControls.failures, SettingsControls.consumption,
            SettingsControls.notifications,
        ]
        + [SettingsControls.waitNotification, SettingsControls.rootCertificate]
        + [SubscriptionControls.clock, SubscriptionControls.subscriptions, SubscriptionControls.subscription]
        + [
            BillingControls.billingRetry, BillingControls.gracePeriod, BillingControls.billingIssues,
            BillingControls.forSale, BillingControls.billing, BillingControls.recover, BillingControls.priceIncrease,
        ]
        + [BillingControls.consentToPriceIncrease, BillingControls.declinePriceIncrease]
        + [OfferControls.offerKey, OfferControls.offerKeys, OfferControls.familyShare, OfferControls.familyRevoke]

    /// The command declared as `name`, if any.
    static func named(_ name: String) -> ControlCommand? {
        all.first { $0.spec.name == name }
    }
}
