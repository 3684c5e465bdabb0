import OptionParsing

/// Every `mockstore control` command, in the order `mockstore control --help` lists them: each a type, declared
/// beside what it sends (one file an area: transactions, settings, customers, subscriptions, billing, offers).
enum ControlCommands {
    static let all: [any ControlCommand.Type] =
        [
            TransactionControls.Reset.self, CustomerControls.Customer.self, TransactionControls.Clear.self,
            TransactionControls.Transactions.self, TransactionControls.Delete.self, TransactionControls.Buy.self,
            SettingsControls.AskToBuy.self, TransactionControls.Approve.self, TransactionControls.Decline.self,
            SettingsControls.Interrupted.self, TransactionControls.Resolve.self,
        ]
        + [
            TransactionControls.Refund.self, TransactionControls.RequestRefund.self,
            TransactionControls.DeclineRefund.self, TransactionControls.ReverseRefund.self,
        ]
        + [
            SettingsControls.StorefrontSetting.self, SettingsControls.Locale.self, SettingsControls.Settings.self,
            SettingsControls.Fail.self, SettingsControls.ClearFailure.self, SettingsControls.Failures.self,
            SettingsControls.Consumption.self, SettingsControls.Notifications.self,
        ]
        + [SettingsControls.WaitNotification.self, SettingsControls.RootCertificate.self]
        + [
            SubscriptionControls.Clock.self, SubscriptionControls.Subscriptions.self,
            SubscriptionControls.Subscription.self,
        ]
        + [
            BillingControls.BillingRetry.self, BillingControls.GracePeriod.self, BillingControls.BillingIssues.self,
            BillingControls.ForSale.self, BillingControls.Billing.self, BillingControls.Recover.self,
            BillingControls.PriceIncrease.self,
        ]
        + [BillingControls.ConsentToPriceIncrease.self, BillingControls.DeclinePriceIncrease.self]
        + [
            OfferControls.OfferKey.self, OfferControls.OfferKeys.self, OfferControls.FamilyShare.self,
            OfferControls.FamilyRevoke.self,
        ]

    /// The command declared as `name`, if any.
    static func named(_ name: String) -> (any ControlCommand.Type)? {
        all.first { $0.configuration.name == name }
    }
}
