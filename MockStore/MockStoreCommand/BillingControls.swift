import OptionParsing
import StoreTestControls
import StoreWire

/// The billing and price-increase controls of `mockstore control` (SKTestSession's
/// `shouldEnterBillingRetryOnRenewal`, `billingGracePeriodIsEnabled`, price-increase consent).
/// The `mockstore control` commands of one area (see ``ControlCommands``).
enum BillingControls {
    /// The `SUBSCRIPTION` word of a billing control.
    static let subscriptionWord = PositionalSpec(
        .subscription, help: "a transaction id of the subscription, or a product id of its group")

    static let billingRetry = ControlCommand(
        CommandSpec(
            "billing-retry", summary: "subscriptions fail to bill when they renew: billing retry (DID_FAIL_TO_RENEW)",
            positionals: [OnOff.positional])
    ) { args throws(UsageError) in billingUpdate(TestBillingSettingsUpdate(billingRetryOnRenewal: args.isOn)) }

    static let gracePeriod = ControlCommand(
        CommandSpec(
            "grace-period",
            summary: "a renewal that fails to bill starts a grace period with access (DID_FAIL_TO_RENEW "
                + "GRACE_PERIOD, then GRACE_PERIOD_EXPIRED)", positionals: [OnOff.positional])
    ) { args throws(UsageError) in billingUpdate(TestBillingSettingsUpdate(gracePeriodEnabled: args.isOn)) }

    static let billingIssues = ControlCommand(
        CommandSpec(
            "billing-issues", summary: "StoreKit's Billing Problem message while in billing retry",
            positionals: [OnOff.positional])
    ) { args throws(UsageError) in billingUpdate(TestBillingSettingsUpdate(billingIssueMessagesEnabled: args.isOn)) }

    static let forSale = ControlCommand(
        CommandSpec(
            "for-sale", summary: "take a subscription off sale (off: it expires instead of renewing) or back",
            positionals: [PositionalSpec(.product, help: "a product id"), OnOff.positional])
    ) { args throws(UsageError) in
        billingUpdate(TestBillingSettingsUpdate(productId: args.positional(.product) ?? "", forSale: args.isOn))
    }

    static let billing = ControlCommand(
        CommandSpec("billing", summary: "show the billing settings in force"),
        sends: ControlRequest(TestControls.billingSettings))

    static let recover = ControlCommand(
        CommandSpec(
            "recover",
            summary: "the subscription's billing issue ends: the charge succeeds now (DID_RENEW BILLING_RECOVERY)",
            positionals: [subscriptionWord])
    ) { args throws(UsageError) in ControlRequest(TestControls.recoverBilling, try args.subscriptionReference()) }

    static let priceIncrease = ControlCommand(
        CommandSpec(
            "price-increase",
            summary: "raise the price of the subscription's next renewals: PRICE_INCREASE PENDING (or ACCEPTED "
                + "with --no-consent)",
            options: [
                .string(.price, "PRICE", help: "the new price, e.g. 10.99 (default: 10% more)"),
                .flag(.noConsent, help: "an increase the customer need not agree to"),
            ], positionals: [subscriptionWord]),
        request: priceIncreaseRequest)

    static let consentToPriceIncrease = ControlCommand(
        CommandSpec(
            "consent-price-increase", summary: "the customer agrees to the price increase: PRICE_INCREASE ACCEPTED",
            positionals: [subscriptionWord])
    ) { args throws(UsageError) in
        ControlRequest(TestControls.consentToPriceIncrease, try args.subscriptionReference())
    }

    static let declinePriceIncrease = ControlCommand(
        CommandSpec(
            "decline-price-increase",
            summary: "the customer refuses the price increase: auto-renew off, then EXPIRED PRICE_INCREASE",
            positionals: [subscriptionWord])
    ) { args throws(UsageError) in
        ControlRequest(TestControls.declinePriceIncrease, try args.subscriptionReference())
    }

    /// The billing settings changed by `update`.
    private static func billingUpdate(_ update: TestBillingSettingsUpdate) -> ControlRequest {
        ControlRequest(TestControls.updateBillingSettings, body: update)
    }

    /// `price-increase SUBSCRIPTION [--price PRICE] [--no-consent]`.
    private static func priceIncreaseRequest(_ args: ParsedArguments) throws(UsageError) -> ControlRequest {
        let price = try args.string(.price).map { text throws(UsageError) in
            guard let milli = ControlInvocation.milliunits(text) else {
                throw .invalidValue("--price", text, isNot: "a price above 0 such as 10.99", command: args.path)
            }
            return milli
        }
        let body = TestPriceIncreaseRequest(price: price, needsConsent: args.flag(.noConsent) ? false : nil)
        return ControlRequest(TestControls.priceIncrease, try args.subscriptionReference(), body: body)
    }
}
