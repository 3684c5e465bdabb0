import OptionParsing
import StoreTestControls
import StoreWire

/// The billing and price-increase controls of `mockstore control` (SKTestSession's
/// `shouldEnterBillingRetryOnRenewal`, `billingGracePeriodIsEnabled`, price-increase consent).
/// The `mockstore control` commands of one area (see ``ControlCommands``).
enum BillingControls {
    /// The `SUBSCRIPTION` word of a billing control.
    static let subscriptionWord = Argument.word(
        .subscription, help: "a transaction id of the subscription, or a product id of its group")

    struct BillingRetry: ControlCommand {
        static let configuration = CommandSpec(
            "billing-retry", summary: "subscriptions fail to bill when they renew: billing retry (DID_FAIL_TO_RENEW)",
            positionals: [OnOff.word.spec])
        let setting: OnOff
        init(_ arguments: ParsedArguments) throws(UsageError) { setting = try arguments.value(of: OnOff.word) }
        func plan() -> ControlPlan { billingUpdate(TestBillingSettingsUpdate(billingRetryOnRenewal: setting.isOn)) }
    }

    struct GracePeriod: ControlCommand {
        static let configuration = CommandSpec(
            "grace-period",
            summary: "a renewal that fails to bill starts a grace period with access (DID_FAIL_TO_RENEW "
                + "GRACE_PERIOD, then GRACE_PERIOD_EXPIRED)", positionals: [OnOff.word.spec])
        let setting: OnOff
        init(_ arguments: ParsedArguments) throws(UsageError) { setting = try arguments.value(of: OnOff.word) }
        func plan() -> ControlPlan { billingUpdate(TestBillingSettingsUpdate(gracePeriodEnabled: setting.isOn)) }
    }

    struct BillingIssues: ControlCommand {
        static let configuration = CommandSpec(
            "billing-issues", summary: "StoreKit's Billing Problem message while in billing retry",
            positionals: [OnOff.word.spec])
        let setting: OnOff
        init(_ arguments: ParsedArguments) throws(UsageError) { setting = try arguments.value(of: OnOff.word) }
        func plan() -> ControlPlan {
            billingUpdate(TestBillingSettingsUpdate(billingIssueMessagesEnabled: setting.isOn))
        }
    }

    struct ForSale: ControlCommand {
        static let product = Argument.word(.product, help: "a product id")
        static let configuration = CommandSpec(
            "for-sale", summary: "take a subscription off sale (off: it expires instead of renewing) or back",
            positionals: [product.spec, OnOff.word.spec])
        let product: String
        let setting: OnOff
        init(_ arguments: ParsedArguments) throws(UsageError) {
            product = try arguments.value(of: Self.product)
            setting = try arguments.value(of: OnOff.word)
        }
        func plan() -> ControlPlan {
            billingUpdate(TestBillingSettingsUpdate(productId: product, forSale: setting.isOn))
        }
    }

    struct Billing: ControlCommand {
        static let configuration = CommandSpec("billing", summary: "show the billing settings in force")
        init(_ arguments: ParsedArguments) {}
        func plan() -> ControlPlan { ControlPlan(request: ControlRequest(TestControls.billingSettings)) }
    }

    /// A control about one subscription that sends no body: `recover`, `consent-price-increase`,
    /// `decline-price-increase` (and `family-revoke`, with words of its own).
    struct OnSubscription: Sendable {
        let subscription: String
        init(_ arguments: ParsedArguments, word: Argument<String> = subscriptionWord) throws(UsageError) {
            subscription = try arguments.value(of: word)
        }
        func validate() throws(UsageError) { try ControlWords.checkSubscription(subscription) }
        func plan<Response>(_ endpoint: Endpoint<NoBody, Response>) -> ControlPlan {
            ControlPlan(request: ControlRequest(endpoint, subscription))
        }
    }

    struct Recover: ControlCommand {
        static let configuration = CommandSpec(
            "recover",
            summary: "the subscription's billing issue ends: the charge succeeds now (DID_RENEW BILLING_RECOVERY)",
            positionals: [subscriptionWord.spec])
        let target: OnSubscription
        init(_ arguments: ParsedArguments) throws(UsageError) { target = try OnSubscription(arguments) }
        func validate() throws(UsageError) { try target.validate() }
        func plan() -> ControlPlan { target.plan(TestControls.recoverBilling) }
    }

    struct PriceIncrease: ControlCommand {
        static let price = Option.string(.price, "PRICE", help: "the new price, e.g. 10.99 (default: 10% more)")
        static let noConsent = Option.flag(.noConsent, help: "an increase the customer need not agree to")
        static let configuration = CommandSpec(
            "price-increase",
            summary: "raise the price of the subscription's next renewals: PRICE_INCREASE PENDING (or ACCEPTED "
                + "with --no-consent)",
            options: [price.spec, noConsent.spec], positionals: [subscriptionWord.spec])

        let target: OnSubscription
        /// `--price PRICE`, as given.
        let price: String?
        let noConsent: Bool

        init(_ arguments: ParsedArguments) throws(UsageError) {
            target = try OnSubscription(arguments)
            price = try arguments.value(of: Self.price)
            noConsent = try arguments.value(of: Self.noConsent)
        }

        func validate() throws(UsageError) {
            if let price, ControlInvocation.milliunits(price) == nil {
                throw .invalidValue("--price", price, isNot: "a price above 0 such as 10.99")
            }
            try target.validate()
        }

        func plan() -> ControlPlan {
            let body = TestPriceIncreaseRequest(
                price: price.flatMap(ControlInvocation.milliunits), needsConsent: noConsent ? false : nil)
            return ControlPlan(request: ControlRequest(TestControls.priceIncrease, target.subscription, body: body))
        }
    }

    struct ConsentToPriceIncrease: ControlCommand {
        static let configuration = CommandSpec(
            "consent-price-increase", summary: "the customer agrees to the price increase: PRICE_INCREASE ACCEPTED",
            positionals: [subscriptionWord.spec])
        let target: OnSubscription
        init(_ arguments: ParsedArguments) throws(UsageError) { target = try OnSubscription(arguments) }
        func validate() throws(UsageError) { try target.validate() }
        func plan() -> ControlPlan { target.plan(TestControls.consentToPriceIncrease) }
    }

    struct DeclinePriceIncrease: ControlCommand {
        static let configuration = CommandSpec(
            "decline-price-increase",
            summary: "the customer refuses the price increase: auto-renew off, then EXPIRED PRICE_INCREASE",
            positionals: [subscriptionWord.spec])
        let target: OnSubscription
        init(_ arguments: ParsedArguments) throws(UsageError) { target = try OnSubscription(arguments) }
        func validate() throws(UsageError) { try target.validate() }
        func plan() -> ControlPlan { target.plan(TestControls.declinePriceIncrease) }
    }

    /// The billing settings changed by `update`.
    private static func billingUpdate(_ update: TestBillingSettingsUpdate) -> ControlPlan {
        ControlPlan(request: ControlRequest(TestControls.updateBillingSettings, body: update))
    }
}
