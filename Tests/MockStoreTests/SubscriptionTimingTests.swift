import StoreTestControls
import StoreWire
import Testing

@testable import MockStoreServer
@testable import StoreKitCatalogue

/// Every time rate against Apple's tables (`SKTestSession.TimeRate`): the real time each renewal period, grace
/// period and billing retry lasts once the clock runs at the rate's speed.
@Suite struct SubscriptionTimingTests {
    static let periods: [(String, SubscriptionPeriod)] = [
        ("P1W", .init(value: 1, unit: .week)), ("P1M", .init(value: 1, unit: .month)),
        ("P2M", .init(value: 2, unit: .month)), ("P3M", .init(value: 3, unit: .month)),
        ("P6M", .init(value: 6, unit: .month)), ("P1Y", .init(value: 1, unit: .year)),
    ]
    static let start: Int64 = 1_760_000_000_000

    /// Real milliseconds `virtual` milliseconds take at `rate` with a catalogue whose shortest period is `days`.
    static func real(_ virtual: Int64, _ rate: TimeRate, days: Double) -> Double {
        Double(virtual) / rate.factor(shortestPeriodDays: days)
    }

    static let fixed: [(TimeRate, Double)] = [
        (.oneRenewalEveryFifteenMinutes, 900_000), (.oneRenewalEveryFiveMinutes, 300_000),
        (.oneRenewalEveryMinute, 60_000), (.oneRenewalEveryThirtySeconds, 30_000),
        (.oneRenewalEveryTenSeconds, 10_000), (.oneRenewalEveryTwoSeconds, 2_000),
    ]

    @Test(arguments: fixed, [7.0, 30.0, 365.0])
    func aFixedRateRenewsEveryPeriodInItsTimeWithGraceTAndRetryTwoT(rate: (TimeRate, Double), days: Double) {
        let timing = SubscriptionTiming(rate: rate.0, shortestPeriodDays: days)
        for (name, period) in Self.periods {
            let length = timing.end(of: period, from: Self.start) - Self.start
            #expect(abs(Self.real(length, rate.0, days: days) - rate.1) < 1, "\(rate.0) \(name)")
            #expect(abs(Self.real(timing.gracePeriodLength(for: period), rate.0, days: days) - rate.1) < 1)
        }
        #expect(abs(Self.real(timing.billingRetryLength, rate.0, days: days) - 2 * rate.1) < 1)
    }

    /// Apple's tables: the rate, T, a weekly renewal, and a weekly subscription's grace period (real ms).
    static let scaled: [(TimeRate, Double, Double, Double)] = [
        (.monthlyRenewalEveryHour, 3_600_000, 900_000, 771_000),
        (.monthlyRenewalEveryThirtyMinutes, 1_800_000, 600_000, 514_000),
        (.monthlyRenewalEveryFifteenMinutes, 900_000, 300_000, 257_000),
        (.monthlyRenewalEveryFiveMinutes, 300_000, 180_000, 154_000),
        (.monthlyRenewalEveryThirtySeconds, 30_000, 10_000, 9_000),
    ]

    @Test(arguments: scaled)
    func aScaledRateRenewsEachPeriodAsApplesTableSays(rate: (TimeRate, Double, Double, Double)) {
        let (name, monthly, weekly, weeklyGrace) = rate
        let timing = SubscriptionTiming(rate: name)
        // Monthly T, two months 2T, three 3T, six 6T, a year 12T; the week as the rate's table says.
        let expected: [Double] = [weekly, monthly, 2 * monthly, 3 * monthly, 6 * monthly, 12 * monthly]
        for ((period, each), real) in zip(Self.periods, expected) {
            let length = timing.end(of: each, from: Self.start) - Self.start
            #expect(abs(Self.real(length, name, days: 30) - real) < 1, "\(name) \(period)")
        }
        // Apple gives the weekly grace period to the second: within half a second of it.
        let grace = Self.real(timing.gracePeriodLength(for: Self.periods[0].1), name, days: 30)
        #expect(abs(grace - weeklyGrace) <= 500, "\(name) weekly grace \(grace)")
        #expect(abs(Self.real(timing.gracePeriodLength(for: Self.periods[1].1), name, days: 30) - monthly / 2) < 1)
        #expect(abs(Self.real(timing.billingRetryLength, name, days: 30) - 2 * monthly) < 1)
    }

    @Test func realTimeKeepsTheCalendarAndApplesRealGraceAndRetry() {
        let timing = SubscriptionTiming(rate: .realTime)
        #expect(
            timing.end(of: .init(value: 1, unit: .month), from: Self.start)
                == SubscriptionCalendar.add(
                    .init(value: 1, unit: .month), to: Self.start))
        #expect(timing.gracePeriodLength(for: .init(value: 1, unit: .week)) == 6 * 86_400_000)
        #expect(timing.gracePeriodLength(for: .init(value: 1, unit: .year)) == 16 * 86_400_000)
        #expect(timing.billingRetryLength == 60 * 86_400_000)
    }

    @Test func aRateChangeInBillingRetryMovesItsEndAndTheStoreSeesIt() throws {
        let directory = try TemporaryDirectory()
        let base = ManualClock(fixedDate)
        let store = MockStore(
            configuration: .init(
                catalogue: try SubscriptionHistoryModelTests().catalogue, bundleId: "ai.voicedebrief.app",
                signer: JWSTransactionSigner.hs256(secret: SubscriptionHistoryModelTests.secret), clock: base),
            database: try TransactionStore(path: directory.file("store.sqlite")))
        defer { try? store.close() }
        _ = try store.purchases.purchase(PurchaseRequestBody(productId: "com.example.news.weekly"))
        _ = try store.billingSettings.updateBillingSettings(TestBillingSettingsUpdate(billingRetryOnRenewal: true))
        _ = try store.clockControls.advanceClock(by: "P8D")
        store.subscriptions.runDueSubscriptionEvents()
        #expect(try store.notifications.notificationRecords().notifications.last?.notificationType == .didFailToRenew)
        // At two seconds a renewal, billing retry lasts four seconds (14 days of the clock), not 60 days.
        _ = try store.clockControls.setClockRate("oneRenewalEveryTwoSeconds")
        base.advance(by: 4.1)
        store.subscriptions.runDueSubscriptionEvents()
        let last = try store.notifications.notificationRecords().notifications.last
        #expect(last?.notificationType == .expired && last?.subtype == .billingRetry)
    }
}

extension SubscriptionTimingTests {
    /// What the scheduler sleeps for (``VirtualClock/realMilliseconds(until:)``): the real time the next event is
    /// away at the rate in force, rounded up, 0 once due, and unchanged while a test's clock stands still.
    @Test func theSchedulersWaitIsTheRealTimeTheNextEventIsAwayAtTheRateInForce() {
        let base = ManualClock(fixedDate)
        let clock = VirtualClock(base: base)
        let now = clock.currentMilliseconds()
        let month: Int64 = 30 * 86_400_000
        #expect(clock.realMilliseconds(until: now + 60_000) == 60_000, "real time: a minute is a minute")
        clock.setRate(.monthlyRenewalEveryThirtySeconds)
        #expect(clock.realMilliseconds(until: now + month) == 30_000)
        #expect(clock.realMilliseconds(until: now + month) == 30_000, "a clock that does not run brings nothing nearer")
        #expect(clock.realMilliseconds(until: now + 1) == 1, "rounded up: a wait never ends before the event")
        base.advance(by: 10)
        #expect(clock.realMilliseconds(until: now + month) == 20_000)
        base.advance(by: 20)
        #expect(clock.realMilliseconds(until: now + month) == 0, "due")
        #expect(clock.realMilliseconds(until: now) == 0, "past")
    }
}
