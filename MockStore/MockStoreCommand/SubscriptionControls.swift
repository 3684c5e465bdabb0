import MockStoreServer
import OptionParsing
import StoreTestControls
import StoreWire

/// `mockstore control clock …`, `subscriptions` and `subscription …`: the virtual clock and the subscription
/// controls. The `mockstore control` commands of one area (see ``ControlCommands``).
enum SubscriptionControls {
    struct Clock: ControlCommand {
        /// What `clock` does, by its first word (none: show the clock).
        enum Action: String, ChoiceWords {
            case advance, rate
        }

        static let action = Argument.optionalChoice(.advanceOrRate, Action.self)
        static let value = Argument.optional(.value, help: "the duration or the rate")
        static let configuration = CommandSpec(
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
            positionals: [action.spec, value.spec])

        /// nil: show the clock.
        let action: Action?
        let value: String?

        init(_ arguments: ParsedArguments) throws(UsageError) {
            action = try arguments.value(of: Self.action)
            value = try arguments.value(of: Self.value)
        }

        func validate() throws(UsageError) {
            switch action {
            case nil:
                guard value == nil else { throw UsageError("clock takes advance DURATION or rate RATE") }
            case .advance:
                guard let value else { throw UsageError("clock advance needs a duration, such as P1M, P400D or PT90M") }
                guard ClockDuration(iso8601: value) != nil else {
                    let why =
                        value.hasPrefix("-")
                        ? "the clock only moves forward"
                        : "give a positive ISO 8601 duration such as P1M, P400D or PT90M"
                    throw UsageError("\(quoted(value)) is not a duration the clock can move by: \(why)")
                }
            case .rate:
                guard let value else { throw UsageError("clock rate needs a rate, such as realTime") }
                guard TimeRate(text: value) != nil else {
                    throw UsageError(
                        "\(quoted(value)) is not a time rate (one of "
                            + TimeRate.allCases.map(\.name).joined(separator: ", ") + ", or its _timeRate number)")
                }
            }
        }

        func plan() -> ControlPlan {
            switch action {
            case nil:
                return ControlPlan(request: ControlRequest(TestControls.clock))
            case .advance:
                let body = TestClockRequest(duration: value ?? "")
                return ControlPlan(request: ControlRequest(TestControls.advanceClock, body: body))
            case .rate:
                return ControlPlan(
                    request: ControlRequest(TestControls.setClockRate, body: TestClockRequest(rate: value ?? "")))
            }
        }

        /// `clock advance -P1M`: said in words before the option parser takes `-P1M` for an option.
        static func refuseNegativeDuration(_ arguments: [String]) throws(UsageError) {
            guard let word = arguments.firstIndex(of: configuration.name), word + 2 < arguments.count,
                arguments[word + 1] == Action.advance.rawValue
            else { return }
            let duration = arguments[word + 2]
            guard duration.hasPrefix("-"), duration.count > 1, !duration.hasPrefix("--") else { return }
            throw UsageError(
                "\(quoted(duration)) is a negative duration: the clock only moves forward",
                command: ["mockstore", MockStoreCommandLine.controlWord, configuration.name])
        }
    }

    struct Subscriptions: FixedControl {
        static let name = "subscriptions"
        static let summary = "list every subscription: status, product, renewal info"
        static let request = ControlRequest(TestControls.subscriptions)
    }

    struct Subscription: ControlCommand {
        /// What `subscription` does, by its first word.
        enum Action: String, ChoiceWords {
            case renew, expire
            case autoRenew = "auto-renew"
            case change
        }

        static let action = Argument.choice(.renewOrExpireOrAutoRenewOrChange, Action.self)
        static let subscription = Argument.word(.subscription, help: "a transaction id or product id")
        static let value = Argument.optional(.value, help: "on|off, or the product to change to")
        static let configuration = CommandSpec(
            "subscription",
            summary: "a subscription (a transaction id of it, or a product id of its group): `renew` now (DID_RENEW), "
                + "`expire` now (EXPIRED VOLUNTARY), `auto-renew on|off` (DID_CHANGE_RENEWAL_STATUS), `change PRODUCT` "
                + "(an upgrade, downgrade or crossgrade: DID_CHANGE_RENEWAL_PREF)",
            positionals: [action.spec, subscription.spec, value.spec])

        let action: Action
        /// A transaction id of the subscription, or a product id of its group.
        let subscription: String
        let value: String?

        /// The subscription, as the endpoints' path takes it.
        var reference: SubscriptionReferencePath { SubscriptionReferencePath(subscription: subscription) }

        init(_ arguments: ParsedArguments) throws(UsageError) {
            action = try arguments.value(of: Self.action)
            subscription = try arguments.value(of: Self.subscription)
            value = try arguments.value(of: Self.value)
        }

        func validate() throws(UsageError) {
            try ControlWords.checkSubscription(subscription)
            switch action {
            case .autoRenew:
                guard let value, OnOff(rawValue: value) != nil else {
                    throw UsageError("subscription auto-renew needs on or off")
                }
            case .change:
                guard let value, !value.isEmpty else {
                    throw UsageError("subscription change needs the product to change to")
                }
            case .renew, .expire:
                guard value == nil else { throw UsageError("subscription \(action.rawValue) takes no more words") }
            }
        }

        func plan() -> ControlPlan {
            switch action {
            case .autoRenew:
                let body = TestAutoRenewRequest(enabled: value.flatMap(OnOff.init(rawValue:))?.isOn == true)
                return ControlPlan(request: ControlRequest(TestControls.autoRenew, reference, body: body))
            case .change:
                let body = PurchaseRequestBody(productId: value ?? "")
                return ControlPlan(request: ControlRequest(TestControls.change, reference, body: body))
            case .renew:
                return ControlPlan(request: ControlRequest(TestControls.renew, reference))
            case .expire:
                return ControlPlan(request: ControlRequest(TestControls.expire, reference))
            }
        }
    }
}
