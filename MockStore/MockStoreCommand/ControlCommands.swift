import OptionParsing

/// Every `mockstore control` command, in the order `mockstore control --help` lists them: each declared once, beside
/// what it sends (one file an area: transactions, settings, customers, subscriptions, billing, offers).
enum ControlCommands {
    static let all: [ControlCommand] =
        [reset, customer, clear, transactions, delete, buy, askToBuy, approve, decline, interrupted, resolve]
        + [refund, requestRefund, declineRefund, reverseRefund]
        + [storefront, locale, settings, fail, clearFailure, failures, consumption, notifications]
        + [waitNotification, rootCertificate]
        + [clock, subscriptions, subscription]
        + [billingRetry, gracePeriod, billingIssues, forSale, billing, recover, priceIncrease]
        + [consentToPriceIncrease, declinePriceIncrease]
        + [offerKey, offerKeys, familyShare, familyRevoke]

    /// The command declared as `name`, if any.
    static func named(_ name: String) -> ControlCommand? {
        all.first { $0.spec.name == name }
    }
}
