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

    struct BillingRetry: SwitchControl {
        static let name = "billing-retry"
        static let summary = "subscriptions fail to bill when they renew: billing retry (DID_FAIL_TO_RENEW)"
        let setting: OnOff
        static func request(_ on: Bool) -> ControlRequest {
            billingUpdate(TestBillingSettingsUpdate(billingRetryOnRenewal: on))
        }
    }

    struct GracePeriod: SwitchControl {
        static let name = "grace-period"
        static let summary =
            "a renewal that fails to bill starts a grace period with access (DID_FAIL_TO_RENEW GRACE_PERIOD, then "
            + "GRACE_PERIOD_EXPIRED)"
        let setting: OnOff
        static func request(_ on: Bool) -> ControlRequest {
            billingUpdate(TestBillingSettingsUpdate(gracePeriodEnabled: on))
        }
    }

    struct BillingIssues: SwitchControl {
        static let name = "billing-issues"
        static let summary = "StoreKit's Billing Problem message while in billing retry"
        let setting: OnOff
        static func request(_ on: Bool) -> ControlRequest {
            billingUpdate(TestBillingSettingsUpdate(billingIssueMessagesEnabled: on))
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
            ControlPlan(request: billingUpdate(TestBillingSettingsUpdate(productId: product, forSale: setting.isOn)))
        }
    }

    struct Billing: FixedControl {
        static let name = "billing"
        static let summary = "show the billing settings in force"
        static let request = ControlRequest(TestControls.billingSettings)
    }

    struct Recover: SubscriptionControl {
        static let name = "recover"
        static let summary =
            "the subscription's billing issue ends: the charge succeeds now (DID_RENEW BILLING_RECOVERY)"
        static let endpoint = TestControls.recoverBilling
        let subscription: String
    }

    struct PriceIncrease: ControlCommand {
        static let price = Option.string(.price, "PRICE", help: "the new price, e.g. 10.99 (default: 10% more)")
        static let noConsent = Option.flag(.noConsent, help: "an increase the customer need not agree to")
        static let configuration = CommandSpec(
            "price-increase",
            summary: "raise the price of the subscription's next renewals: PRICE_INCREASE PENDING (or ACCEPTED "
                + "with --no-consent)",
            options: [price.spec, noConsent.spec], positionals: [subscriptionWord.spec])

        /// A transaction id of the subscription, or a product id of its group.
        let subscription: String
        /// `--price PRICE`, as given.
        let price: String?
        let noConsent: Bool

        init(_ arguments: ParsedArguments) throws(UsageError) {
            subscription = try arguments.value(of: subscriptionWord)
            price = try arguments.value(of: Self.price)
            noConsent = try arguments.value(of: Self.noConsent)
        }

        func validate() throws(UsageError) {
            if let price, ControlInvocation.milliunits(price) == nil {
                throw .invalidValue("--price", price, isNot: "a price above 0 such as 10.99")
            }
            try ControlWords.checkSubscription(subscription)
        }

        func plan() -> ControlPlan {
            let body = TestPriceIncreaseRequest(
                price: price.flatMap(ControlInvocation.milliunits), needsConsent: noConsent ? false : nil)
            return ControlPlan(
                request: ControlRequest(
                    TestControls.priceIncrease, SubscriptionReferencePath(subscription: subscription), body: body))
        }
    }

    struct ConsentToPriceIncrease: SubscriptionControl {
        static let name = "consent-price-increase"
        static let summary = "the customer agrees to the price increase: PRICE_INCREASE ACCEPTED"
        static let endpoint = TestControls.consentToPriceIncrease
        let subscription: String
    }

    struct DeclinePriceIncrease: SubscriptionControl {
        static let name = "decline-price-increase"
        static let summary = "the customer refuses the price increase: auto-renew off, then EXPIRED PRICE_INCREASE"
        static let endpoint = TestControls.declinePriceIncrease
        let subscription: String
    }

    /// The billing settings changed by `update`.
    private static func billingUpdate(_ update: TestBillingSettingsUpdate) -> ControlRequest {
        ControlRequest(TestControls.updateBillingSettings, body: update)
    }
}
