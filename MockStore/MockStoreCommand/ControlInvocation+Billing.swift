import MockStoreHTTP
import OptionParsing
import StoreWire

/// The billing and price-increase controls of `mockstore control` (SKTestSession's
/// `shouldEnterBillingRetryOnRenewal`, `billingGracePeriodIsEnabled`, price-increase consent).
extension ControlInvocation {
    static let billingCommands: [CommandSpec] = {
        let id = PositionalSpec(
            .subscription, help: "a transaction id of the subscription, or a product id of its group")
        let onOff = PositionalSpec(.onOrOff, choices: ["on", "off", "true", "false"])
        return [
            CommandSpec(
                "billing-retry",
                summary: "subscriptions fail to bill when they renew: billing retry (DID_FAIL_TO_RENEW)",
                positionals: [onOff]),
            CommandSpec(
                "grace-period",
                summary: "a renewal that fails to bill starts a grace period with access (DID_FAIL_TO_RENEW "
                    + "GRACE_PERIOD, then GRACE_PERIOD_EXPIRED)", positionals: [onOff]),
            CommandSpec(
                "billing-issues", summary: "StoreKit's Billing Problem message while in billing retry",
                positionals: [onOff]),
            CommandSpec(
                "for-sale", summary: "take a subscription off sale (off: it expires instead of renewing) or back",
                positionals: [PositionalSpec(.product, help: "a product id"), onOff]),
            CommandSpec("billing", summary: "show the billing settings in force"),
            CommandSpec(
                "recover",
                summary: "the subscription's billing issue ends: the charge succeeds now (DID_RENEW BILLING_RECOVERY)",
                positionals: [id]),
            CommandSpec(
                "price-increase",
                summary: "raise the price of the subscription's next renewals: PRICE_INCREASE PENDING (or ACCEPTED "
                    + "with --no-consent)",
                options: [
                    .string(.price, "PRICE", help: "the new price, e.g. 10.99 (default: 10% more)"),
                    .flag(.noConsent, help: "an increase the customer need not agree to"),
                ], positionals: [id]),
            CommandSpec(
                "consent-price-increase", summary: "the customer agrees to the price increase: PRICE_INCREASE ACCEPTED",
                positionals: [id]),
            CommandSpec(
                "decline-price-increase",
                summary: "the customer refuses the price increase: auto-renew off, then EXPIRED PRICE_INCREASE",
                positionals: [id]),
        ]
    }()

    /// The method, path and body of a billing control, or `nil` when `args` is another command.
    static func billingRequest(_ args: ParsedArguments) throws(UsageError) -> (String, String, [UInt8]?)? {
        let settings = "/test/v1/settings/billing"
        let on = ["on", "true"].contains(args.positional(.onOrOff))
        switch args.command {
        case "billing-retry":
            return ("POST", settings, billingJSON(TestBillingSettingsUpdate(billingRetryOnRenewal: on)))
        case "grace-period": return ("POST", settings, billingJSON(TestBillingSettingsUpdate(gracePeriodEnabled: on)))
        case "billing-issues":
            return ("POST", settings, billingJSON(TestBillingSettingsUpdate(billingIssueMessagesEnabled: on)))
        case "for-sale":
            let update = TestBillingSettingsUpdate(productId: args.positional(.product) ?? "", forSale: on)
            return ("POST", settings, billingJSON(update))
        case "billing": return ("GET", settings, nil)
        case "price-increase":
            let price = try args.string(.price).map { text throws(UsageError) in
                guard let milli = Self.milliunits(text) else {
                    throw .invalidValue("--price", text, isNot: "a price above 0 such as 10.99", command: args.path)
                }
                return milli
            }
            let body = TestPriceIncreaseRequest(price: price, needsConsent: args.flag(.noConsent) ? false : nil)
            return ("POST", try subscriptionPath(args) + "/price-increase", billingJSON(body))
        case "recover": return ("POST", try subscriptionPath(args) + "/recover", nil)
        case "consent-price-increase": return ("POST", try subscriptionPath(args) + "/price-increase/consent", nil)
        case "decline-price-increase": return ("POST", try subscriptionPath(args) + "/price-increase/decline", nil)
        default: return nil
        }
    }

    private static func subscriptionPath(_ args: ParsedArguments) throws(UsageError) -> String {
        let reference = args.positional(.subscription) ?? ""
        guard !reference.isEmpty, !reference.contains("/") else {
            throw UsageError("\(quoted(reference)) is not a transaction id or product id", command: args.path)
        }
        return "/test/v1/subscriptions/" + reference
    }

    /// `10.99` → 10990: a price above 0 with at most three decimals, in milliunits; nil for anything else.
    static func milliunits(_ text: String) -> Int64? {
        thousandths(text, wholeDigits: 9).flatMap { $0 > 0 ? $0 : nil }
    }

    /// `12.5` → 12500: digits, then optionally a point and one to three digits, in thousandths; nil otherwise.
    static func thousandths(_ text: String, wholeDigits: Int) -> Int64? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= wholeDigits,
            whole.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.count <= 3, fraction.allSatisfy({ $0.isASCII && $0.isNumber }),
            parts.count == 1 || !fraction.isEmpty
        else { return nil }
        fraction += String(repeating: "0", count: 3 - fraction.count)
        guard let units = Int64(whole), let parts = Int64(fraction) else { return nil }
        return units * 1000 + parts
    }

    private static func billingJSON<Body: Encodable>(_ body: Body) -> [UInt8] {
        (try? HTTPResponse.encode(body)) ?? Array("{}".utf8)
    }
}
