import Clocks
import Foundation
import OptionParsing
import StoreTestControls
import StoreWire
import TestSupport
import Testing

@testable import MockStoreCommand
@testable import MockStoreServer
@testable import StoreKitCatalogue

/// `mockstore --clock sandbox` (issue 36, item 4): Apple's sandbox clock beside the virtual one. Dates are the wall
/// clock's (here a test clock that stands still until the test moves it: nothing waits in real time), periods last
/// what Apple's table for the renewal rate says, and a subscription renews at most 12 times after its purchase.
@Suite struct SandboxClockTests {
    static let secret = Array("sandbox-clock-secret".utf8)
    static let monthly = "com.example.basic.monthly"
    static let yearly = "com.example.pro.yearly"
    static let minute: Int64 = 60_000

    let directory: TemporaryDirectory
    let base = TestClock(milliseconds: fixedDate.millisecondsSince1970)

    init() throws {
        directory = try TemporaryDirectory("sandbox-clock")
    }

    /// A store on `base` under `mode`, selling the subscription fixture without its introductory offers (so that a
    /// first period lasts the product's own).
    private func store(_ mode: StoreClockMode = .sandbox(.monthlyRenewalEveryFiveMinutes)) throws -> MockStore {
        var catalogue = try StoreKitConfiguration.load(contentsOf: Repository.subscriptionCatalogue)
        for index in catalogue.products.indices { catalogue.products[index].subscription?.introductoryOffer = nil }
        return MockStore(
            configuration: .init(
                catalogue: catalogue,
                bundleId: "ai.voicedebrief.app", signer: JWSTransactionSigner.hs256(secret: Self.secret), clock: base,
                clockMode: mode),
            database: try TransactionStore(path: directory.file("store.sqlite")))
    }

    private func subscription(_ store: MockStore, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> TestSubscription
    {
        try #require(try store.subscriptions.testSubscriptions().subscriptions.first, sourceLocation: sourceLocation)
    }

    private func notices(_ store: MockStore) throws -> [SubscriptionNotice] {
        try store.notifications.notificationRecords().notifications.map {
            SubscriptionNotice($0.notificationType, $0.subtype)
        }
    }

    /// Moves the wall clock to `date` and waits until the store's timer has run everything due by then.
    private func move(to date: Int64, _ timer: StoreTimer) async throws {
        base.advance(byMilliseconds: date - base.currentMilliseconds())
        try await withinTimeLimit { [base] in await timer.pass(reaching: base.currentMilliseconds()) }
    }
}

/// The command line: `--clock` and `--time-rate`.
extension SandboxClockTests {
    private func parse(_ arguments: [String]) throws -> MockStoreOptions? {
        guard case .run(let options) = try MockStoreCommandLine.parse(arguments) else { return nil }
        return options
    }

    @Test func theVirtualClockIsTheDefaultAndSandboxTakesFiveMinutesUnlessARateIsGiven() throws {
        #expect(try parse([])?.clockMode == .virtual)
        #expect(try parse(["--clock", "virtual"])?.clockMode == .virtual)
        #expect(try parse(["--clock", "sandbox"])?.clockMode == .sandbox(.monthlyRenewalEveryFiveMinutes))
        for rate in SandboxRenewalRate.allCases {
            #expect(try parse(["--clock", "sandbox", "--time-rate", rate.name])?.clockMode == .sandbox(rate))
        }
        #expect(
            try parse(["--clock=sandbox", "--time-rate=monthlyRenewalEveryHour"])?.clockMode
                == .sandbox(.monthlyRenewalEveryHour))
        for option in ["--clock", "--time-rate", "sandbox", "monthlyRenewalEveryFiveMinutes"] {
            #expect(MockStoreCommandLine.usage.contains(option), "--help tells of \(option)")
        }
    }

    @Test(arguments: [
        (
            ["--clock", "sandbox", "--time-rate", "monthlyRenewalEveryThirtySeconds"],
            "--time-rate \"monthlyRenewalEveryThirtySeconds\" is not one of monthlyRenewalEveryFiveMinutes, "
                + "monthlyRenewalEveryThirtyMinutes, monthlyRenewalEveryHour"
        ),
        (["--clock", "sandbox", "--time-rate"], "--time-rate needs a value"),
        (["--clock", "wall"], "--clock \"wall\" is not one of virtual, sandbox"),
        (["--time-rate", "monthlyRenewalEveryHour"], "--time-rate is only used with --clock sandbox"),
        (
            ["--clock", "virtual", "--time-rate", "monthlyRenewalEveryHour"],
            "--time-rate is only used with --clock sandbox"
        ),
    ])
    func aWrongClockOrRateIsAUsageErrorThatExits64(arguments: [String], message: String) {
        let error = #expect(throws: UsageError.self) { try MockStoreCommandLine.parse(arguments) }
        #expect(
            error?.message.hasPrefix(message) == true, "\(error?.message ?? "no error") should start with \(message)")
        #expect(error.map { ExitStatus(for: $0) } == .usage, "exit 64")
    }
}

/// Apple's table for each sandbox rate, exactly, in real milliseconds.
extension SandboxClockTests {
    static let tables: [(SandboxRenewalRate, [Int64])] = [
        // weekly, monthly, two months, three months, six months, a year
        (.monthlyRenewalEveryFiveMinutes, [3, 5, 10, 15, 30, 60].map { $0 * minute }),
        (.monthlyRenewalEveryThirtyMinutes, [10, 30, 60, 90, 180, 360].map { $0 * minute }),
        (.monthlyRenewalEveryHour, [15, 60, 120, 180, 360, 720].map { $0 * minute }),
    ]

    @Test(arguments: tables)
    func eachPeriodLastsWhatApplesSandboxTableSays(rate: SandboxRenewalRate, lengths: [Int64]) {
        let timing = SubscriptionTiming(sandboxRate: rate)
        let start = fixedDate.millisecondsSince1970
        for ((name, period), length) in zip(SubscriptionTimingTests.periods, lengths) {
            #expect(timing.end(of: period, from: start) - start == length, "\(rate.name) \(name)")
        }
        // Grace period and billing retry as the same T at the scaled rate: a week's 6/7 (weekly), T/2, 2T.
        #expect(timing.gracePeriodLength(for: SubscriptionTimingTests.periods[0].1) == lengths[0] * 6 / 7)
        #expect(timing.gracePeriodLength(for: SubscriptionTimingTests.periods[1].1) == lengths[1] / 2)
        #expect(timing.billingRetryLength == 2 * lengths[1])
    }
}

/// The store in process, on the test's wall clock.
extension SandboxClockTests {
    @Test func controlClockSaysWhichClockIsInForceAndTheSandboxOneCannotBeMoved() throws {
        let virtual = try store(.virtual)
        #expect(virtual.clockControls.clock().kind == .virtual)
        try virtual.close()

        let store = try store(.sandbox(.monthlyRenewalEveryThirtyMinutes))
        defer { try? store.close() }
        let clock = store.clockControls.clock()
        #expect(clock.kind == .sandbox)
        #expect(clock.rate == .monthlyRenewalEveryThirtyMinutes)
        #expect(clock.timeRate == 11, "the same rate's _timeRate number in Xcode")
        #expect(clock.factor == 1)
        #expect(clock.now == base.currentMilliseconds(), "the wall clock's now")
        base.advance(byMilliseconds: 60 * Self.minute)
        #expect(store.clockControls.clock().now == base.currentMilliseconds(), "an hour later is an hour later")

        let advance = #expect(throws: MockStoreError.self) { try store.clockControls.advanceClock(by: "P1M") }
        #expect(advance?.status == 409)
        #expect(advance?.message.contains("real time cannot be moved on") == true, "\(advance?.message ?? "")")
        let rate = #expect(throws: MockStoreError.self) {
            try store.clockControls.setClockRate("monthlyRenewalEveryThirtySeconds")
        }
        #expect(rate?.status == 409)
        #expect(rate?.message.contains("real time cannot be sped up") == true, "\(rate?.message ?? "")")
        let body = try JSONDecoder().decode(TestClockBody.self, from: try JSONEncoder().encode(clock))
        #expect(body.kind == .sandbox, "kind goes over the wire as a typed value")
    }

    @Test func aMonthlyRenewsEveryFiveWallClockMinutesTwelveTimesThenExpires() async throws {
        let store = try store()
        defer { try? store.close() }
        let purchased = base.currentMilliseconds()
        _ = try store.purchases.purchase(PurchaseRequestBody(productId: Self.monthly))
        let first = try subscription(store).expiresDate
        #expect(first == purchased + 5 * Self.minute, "a month is 5 minutes: \(first - purchased)")
        let timer = StoreTimer(store: store)
        defer { timer.stop() }

        try await move(to: purchased + 5 * Self.minute - 1, timer)
        #expect(try notices(store) == [SubscriptionNotice(.subscribed, .initialBuy)], "a millisecond early: nothing")
        for renewal in 1...SandboxRenewalRate.renewalLimit {
            try await move(to: purchased + Int64(renewal) * 5 * Self.minute, timer)
            let now = try subscription(store)
            #expect(now.status == .active, "renewal \(renewal)")
            #expect(now.expiresDate == purchased + Int64(renewal + 1) * 5 * Self.minute, "renewal \(renewal)")
            #expect(try notices(store).count == 1 + renewal)
        }
        try await move(to: purchased + 13 * 5 * Self.minute, timer)
        let expired = try subscription(store)
        #expect(expired.status == .expired, "no 13th renewal")
        #expect(expired.expirationIntent == .customerCancelled)
        #expect(expired.autoRenewStatus == .off)
        let expected =
            [SubscriptionNotice(.subscribed, .initialBuy)]
            + Array(repeating: SubscriptionNotice(.didRenew), count: 12) + [SubscriptionNotice(.expired, .voluntary)]
        #expect(try notices(store) == expected)

        try await move(to: purchased + 20 * 5 * Self.minute, timer)
        #expect(try notices(store).count == expected.count, "nothing more once expired")
    }

    @Test func aYearlyPeriodLastsOneWallClockHour() async throws {
        let store = try store()
        defer { try? store.close() }
        let purchased = base.currentMilliseconds()
        _ = try store.purchases.purchase(PurchaseRequestBody(productId: Self.yearly))
        let timer = StoreTimer(store: store)
        defer { timer.stop() }
        #expect(try subscription(store).expiresDate == purchased + 60 * Self.minute, "a year is an hour")
        try await move(to: purchased + 60 * Self.minute - 1, timer)
        #expect(try notices(store).count == 1, "a millisecond early: nothing")
        let renewal = purchased + 60 * Self.minute
        try await move(to: renewal, timer)
        let renewed = try subscription(store)
        #expect(renewed.status == .active)
        #expect(renewed.expiresDate == renewal + 60 * Self.minute, "a year is an hour of the wall clock")
    }
}
