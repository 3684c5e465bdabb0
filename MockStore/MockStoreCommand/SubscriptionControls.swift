import MockStoreServer
import OptionParsing
import StoreTestControls
import StoreWire

/// `mockstore control clock …`, `subscriptions` and `subscription …`: the virtual clock and the subscription
/// controls.
/// The `mockstore control` commands of one area (see ``ControlCommands``).
enum SubscriptionControls {
    /// What `clock` does, by its first word (none: show the clock).
    enum ClockAction: String, CaseIterable {
        case advance, rate
    }

    /// What `subscription` does, by its first word.
    enum SubscriptionAction: String, CaseIterable {
        case renew, expire
        case autoRenew = "auto-renew"
        case change
    }

    static let clock = ControlCommand(
        CommandSpec(
            "clock",
            summary: "show the store's clock (kind virtual, or sandbox under mockstore --clock sandbox; now, rate); "
                + "`clock advance DURATION` moves the virtual clock on by an ISO 8601 "
                + "duration (P1M, P400D, PT90M, P1Y2M3DT4H5M6S, P2W), running every renewal and expiry due on the "
                + "way; `clock rate RATE` sets the time rate (realTime, monthlyRenewalEveryHour, "
                + "monthlyRenewalEveryThirtyMinutes, monthlyRenewalEveryFifteenMinutes, monthlyRenewalEveryFiveMinutes, "
                + "monthlyRenewalEveryThirtySeconds, oneRenewalEveryFifteenMinutes, oneRenewalEveryFiveMinutes, "
                + "oneRenewalEveryMinute, oneRenewalEveryThirtySeconds, oneRenewalEveryTenSeconds, "
                + "oneRenewalEveryTwoSeconds, or the .storekit _timeRate number). The sandbox clock is the wall clock: "
                + "advance and rate are refused",
            positionals: [
                PositionalSpec(.advanceOrRate, optional: true, choices: ClockAction.allCases.map(\.rawValue)),
                PositionalSpec(.value, help: "the duration or the rate", optional: true),
            ]),
        request: clockRequest)

    static let subscriptions = ControlCommand(
        CommandSpec("subscriptions", summary: "list every subscription: status, product, renewal info"),
        sends: ControlRequest(TestControls.subscriptions))

    static let subscription = ControlCommand(
        CommandSpec(
            "subscription",
            summary: "a subscription (a transaction id of it, or a product id of its group): `renew` now (DID_RENEW), "
                + "`expire` now (EXPIRED VOLUNTARY), `auto-renew on|off` (DID_CHANGE_RENEWAL_STATUS), `change PRODUCT` "
                + "(an upgrade, downgrade or crossgrade: DID_CHANGE_RENEWAL_PREF)",
            positionals: [
                PositionalSpec(
                    .renewOrExpireOrAutoRenewOrChange, choices: SubscriptionAction.allCases.map(\.rawValue)),
                PositionalSpec(.subscription, help: "a transaction id or product id"),
                PositionalSpec(.value, help: "on|off, or the product to change to", optional: true),
            ]),
        request: subscriptionRequest)

    /// `clock advance -P1M`: said in words before the option parser takes `-P1M` for an option.
    static func refuseNegativeDuration(_ arguments: [String]) throws(UsageError) {
        guard let word = arguments.firstIndex(of: clock.spec.name), word + 2 < arguments.count,
            arguments[word + 1] == ClockAction.advance.rawValue
        else { return }
        let duration = arguments[word + 2]
        guard duration.hasPrefix("-"), duration.count > 1, !duration.hasPrefix("--") else { return }
        throw UsageError(
            "\(quoted(duration)) is a negative duration: the clock only moves forward",
            command: ["mockstore", MockStoreCommandLine.controlWord, clock.spec.name])
    }

    private static func clockRequest(_ args: ParsedArguments) throws(UsageError) -> ControlRequest {
        let value = args.positional(.value)
        switch args.positional(.advanceOrRate).flatMap(ClockAction.init(rawValue:)) {
        case nil:
            guard value == nil else {
                throw UsageError("clock takes advance DURATION or rate RATE", command: args.path)
            }
            return ControlRequest(TestControls.clock)
        case .advance:
            guard let value else {
                throw UsageError("clock advance needs a duration, such as P1M, P400D or PT90M", command: args.path)
            }
            guard ClockDuration(iso8601: value) != nil else {
                let why =
                    value.hasPrefix("-")
                    ? "the clock only moves forward" : "give a positive ISO 8601 duration such as P1M, P400D or PT90M"
                throw UsageError("\(quoted(value)) is not a duration the clock can move by: \(why)", command: args.path)
            }
            return ControlRequest(TestControls.advanceClock, body: TestClockRequest(duration: value))
        case .rate:
            guard let value else { throw UsageError("clock rate needs a rate, such as realTime", command: args.path) }
            guard TimeRate(text: value) != nil else {
                throw UsageError(
                    "\(quoted(value)) is not a time rate (one of "
                        + TimeRate.allCases.map(\.name).joined(separator: ", ") + ", or its _timeRate number)",
                    command: args.path)
            }
            return ControlRequest(TestControls.setClockRate, body: TestClockRequest(rate: value))
        }
    }

    private static func subscriptionRequest(_ args: ParsedArguments) throws(UsageError) -> ControlRequest {
        // The parser took only the declared words.
        let action = SubscriptionAction(rawValue: args.positional(.renewOrExpireOrAutoRenewOrChange) ?? "") ?? .renew
        let reference = try args.subscriptionReference()
        let value = args.positional(.value)
        switch action {
        case .autoRenew:
            guard let value, OnOff.words.contains(value) else {
                throw UsageError("subscription auto-renew needs on or off", command: args.path)
            }
            let body = TestAutoRenewRequest(enabled: OnOff.isOn(value))
            return ControlRequest(TestControls.autoRenew, reference, body: body)
        case .change:
            guard let value, !value.isEmpty else {
                throw UsageError("subscription change needs the product to change to", command: args.path)
            }
            return ControlRequest(TestControls.change, reference, body: PurchaseRequestBody(productId: value))
        case .renew, .expire:
            guard value == nil else {
                throw UsageError("subscription \(action.rawValue) takes no more words", command: args.path)
            }
            return ControlRequest(action == .renew ? TestControls.renew : TestControls.expire, reference)
        }
    }
}
