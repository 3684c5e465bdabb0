import MockStoreHTTP
import MockStoreServer
import OptionParsing
import StoreWire

/// `mockstore control clock …` and `control subscription …`: the virtual clock and the subscription controls.
extension ControlInvocation {
    /// The subscription commands of `mockstore control`.
    static let subscriptionCommands: [CommandSpec] = [
        CommandSpec(
            "clock",
            summary: "show the virtual clock (virtual now, rate); `clock advance DURATION` moves it on by an ISO 8601 "
                + "duration (P1M, P400D, PT90M, P1Y2M3DT4H5M6S, P2W), running every renewal and expiry due on the "
                + "way; `clock rate RATE` sets the time rate (realTime, monthlyRenewalEveryHour, "
                + "monthlyRenewalEveryThirtyMinutes, monthlyRenewalEveryFifteenMinutes, monthlyRenewalEveryFiveMinutes, "
                + "monthlyRenewalEveryThirtySeconds, oneRenewalEveryFifteenMinutes, oneRenewalEveryFiveMinutes, "
                + "oneRenewalEveryMinute, oneRenewalEveryThirtySeconds, oneRenewalEveryTenSeconds, "
                + "oneRenewalEveryTwoSeconds, or the .storekit _timeRate number)",
            positionals: [
                PositionalSpec(.advanceOrRate, optional: true, choices: ["advance", "rate"]),
                PositionalSpec(.value, help: "the duration or the rate", optional: true),
            ]),
        CommandSpec("subscriptions", summary: "list every subscription: status, product, renewal info"),
        CommandSpec(
            "subscription",
            summary: "a subscription (a transaction id of it, or a product id of its group): `renew` now (DID_RENEW), "
                + "`expire` now (EXPIRED VOLUNTARY), `auto-renew on|off` (DID_CHANGE_RENEWAL_STATUS), `change PRODUCT` "
                + "(an upgrade, downgrade or crossgrade: DID_CHANGE_RENEWAL_PREF)",
            positionals: [
                PositionalSpec(
                    .renewOrExpireOrAutoRenewOrChange, choices: ["renew", "expire", "auto-renew", "change"]),
                PositionalSpec(.subscription, help: "a transaction id or product id"),
                PositionalSpec(.value, help: "on|off, or the product to change to", optional: true),
            ]),
    ]

    /// `clock advance -P1M`: said in words before the option parser takes `-P1M` for an option.
    static func refuseNegativeDuration(_ arguments: [String]) throws(UsageError) {
        guard let clock = arguments.firstIndex(of: "clock"), clock + 2 < arguments.count,
            arguments[clock + 1] == "advance", arguments[clock + 2].hasPrefix("-"), arguments[clock + 2].count > 1,
            !arguments[clock + 2].hasPrefix("--")
        else { return }
        throw UsageError(
            "\(quoted(arguments[clock + 2])) is a negative duration: the clock only moves forward",
            command: ["mockstore", "control", "clock"])
    }

    private static func body<Body: Encodable>(_ body: Body) -> [UInt8] {
        (try? HTTPResponse.encode(body)) ?? Array("{}".utf8)
    }

    /// The request of a subscription command, or `nil` when `args` is another command.
    static func subscriptionRequest(_ args: ParsedArguments) throws(UsageError) -> (String, String, [UInt8]?)? {
        switch args.command {
        case "clock": return try clockRequest(args)
        case "subscriptions": return ("GET", "/test/v1/subscriptions", nil)
        case "subscription": return try subscriptionControl(args)
        default: return nil
        }
    }

    private static func clockRequest(_ args: ParsedArguments) throws(UsageError) -> (String, String, [UInt8]?) {
        let value = args.positional(.value)
        switch args.positional(.advanceOrRate) {
        case nil:
            guard value == nil else {
                throw UsageError("clock takes advance DURATION or rate RATE", command: args.path)
            }
            return ("GET", "/test/v1/clock", nil)
        case "advance":
            guard let value else {
                throw UsageError("clock advance needs a duration, such as P1M, P400D or PT90M", command: args.path)
            }
            guard ClockDuration(iso8601: value) != nil else {
                let why =
                    value.hasPrefix("-")
                    ? "the clock only moves forward" : "give a positive ISO 8601 duration such as P1M, P400D or PT90M"
                throw UsageError("\(quoted(value)) is not a duration the clock can move by: \(why)", command: args.path)
            }
            return ("POST", "/test/v1/clock/advance", body(TestClockRequest(duration: value)))
        default:
            guard let value else { throw UsageError("clock rate needs a rate, such as realTime", command: args.path) }
            guard TimeRate(text: value) != nil else {
                throw UsageError(
                    "\(quoted(value)) is not a time rate (one of "
                        + TimeRate.allCases.map(\.name).joined(separator: ", ") + ", or its _timeRate number)",
                    command: args.path)
            }
            return ("POST", "/test/v1/clock/rate", body(TestClockRequest(rate: value)))
        }
    }

    private static func subscriptionControl(_ args: ParsedArguments) throws(UsageError) -> (String, String, [UInt8]?) {
        let action = args.positional(.renewOrExpireOrAutoRenewOrChange) ?? ""
        let reference = args.positional(.subscription) ?? ""
        let value = args.positional(.value)
        guard !reference.isEmpty, !reference.contains("/") else {
            throw UsageError("\(quoted(reference)) is not a transaction id or product id", command: args.path)
        }
        let path = "/test/v1/subscriptions/" + reference + "/" + action
        switch action {
        case "auto-renew":
            guard let value, ["on", "off", "true", "false"].contains(value) else {
                throw UsageError("subscription auto-renew needs on or off", command: args.path)
            }
            return ("POST", path, body(TestAutoRenewRequest(enabled: value == "on" || value == "true")))
        case "change":
            guard let value, !value.isEmpty else {
                throw UsageError("subscription change needs the product to change to", command: args.path)
            }
            return ("POST", path, body(PurchaseRequestBody(productId: value)))
        default:
            guard value == nil else {
                throw UsageError("subscription \(action) takes no more words", command: args.path)
            }
            return ("POST", path, nil)
        }
    }
}
