import StoreKitCatalogue

/// How long a subscription's periods, grace period and billing retry last in virtual time at a time rate, as
/// Xcode's StoreKit testing (`SKTestSession.TimeRate`) has them:
///
/// - real time and the deprecated "T is one day" rates: calendar periods; a grace period of 6 days (weekly
///   subscriptions) or 16 days; billing retry 60 days.
/// - "a monthly renewal every T" (scaled): Apple's table for each rate: a month lasts T, two months 2T, three 3T,
///   six 6T, a year 12T, and a week T/4 (every hour), T/3 (every 30 minutes, 15 minutes and 30 seconds) or 3T/5
///   (every 5 minutes); so at the clock's speed (30 days in T) a month lasts 30 days and a year 360. A grace period
///   lasts 6/7 of a week's renewal (weekly) or T/2 (15 days), billing retry 2T (60 days).
/// - "one renewal every T" (fixed): every period, whatever its length, lasts T; a grace period T; billing retry
///   2T. At the clock's speed T is the catalogue's shortest period (``VirtualClock/shortestPeriodDays``).
/// - the sandbox clock (``sandboxRate``): the lengths of Apple's sandbox table for the rate, in real time (a month
///   T, a year 12T, a week 3, 10 or 15 minutes); grace period and billing retry as the scaled rate of the same T.
public struct SubscriptionTiming: Sendable, Equatable {
    public var rate: TimeRate
    /// What one fixed-rate renewal lasts in virtual days.
    public var shortestPeriodDays: Double
    /// Set under the sandbox clock: periods last what Apple's sandbox gives them in real time (``rate`` unused).
    public var sandboxRate: SandboxRenewalRate?

    public init(rate: TimeRate = .realTime, shortestPeriodDays: Double = 30) {
        self.rate = rate
        self.shortestPeriodDays = shortestPeriodDays
    }

    /// The timing of Apple's sandbox at `sandboxRate`, on the wall clock.
    public init(sandboxRate: SandboxRenewalRate) {
        self.init(rate: .realTime)
        self.sandboxRate = sandboxRate
    }

    static let day: Int64 = 86_400_000

    private enum Kind { case calendar, scaled, fixed, sandbox(SandboxRenewalRate) }

    private var kind: Kind {
        if let sandboxRate { return .sandbox(sandboxRate) }
        return switch rate {
        case .realTime, .oneHourIsOneDay, .thirtyMinutesIsOneDay, .fiveMinutesIsOneDay, .oneMinuteIsOneDay,
            .thirtySecondsIsOneDay, .oneSecondIsOneDay:
            .calendar
        case .monthlyRenewalEveryHour, .monthlyRenewalEveryThirtyMinutes, .monthlyRenewalEveryFifteenMinutes,
            .monthlyRenewalEveryFiveMinutes, .monthlyRenewalEveryThirtySeconds:
            .scaled
        case .oneRenewalEveryFifteenMinutes, .oneRenewalEveryFiveMinutes, .oneRenewalEveryMinute,
            .oneRenewalEveryThirtySeconds, .oneRenewalEveryTenSeconds, .oneRenewalEveryTwoSeconds:
            .fixed
        }
    }

    /// One fixed-rate renewal, in virtual milliseconds.
    private var fixedLength: Int64 { max(1, Int64((shortestPeriodDays * Double(Self.day)).rounded())) }

    /// The end of `count` periods of `period` from `date`.
    public func end(of period: SubscriptionPeriod, count: Int = 1, from date: Int64) -> Int64 {
        switch kind {
        case .calendar:
            return SubscriptionCalendar.add(period, count: count, to: date)
        case .fixed:
            return date + fixedLength * Int64(count)
        case .scaled:
            return date + Self.length(of: period, week: scaledWeek, month: 30 * Self.day) * Int64(count)
        case .sandbox(let sandbox):
            return date + Self.length(of: period, week: sandbox.week, month: sandbox.month) * Int64(count)
        }
    }

    /// A period's length when a week lasts `week` and a month `month` (a year twelve months).
    private static func length(of period: SubscriptionPeriod, week: Int64, month: Int64) -> Int64 {
        switch period.unit {
        case .day: Int64(period.value) * week / 7
        case .week: Int64(period.value) * week
        case .month: Int64(period.value) * month
        case .year: Int64(period.value) * 12 * month
        }
    }

    /// What a weekly renewal lasts at a scaled rate, in virtual time (30 days being one monthly renewal, T):
    /// Apple's tables give 15 minutes of an hour, 10 of 30, 3 of 5 and 10 seconds of 30 (15 minutes: not in the
    /// tables found; a third, as most rates have it).
    private var scaledWeek: Int64 {
        switch rate {
        case .monthlyRenewalEveryHour: 30 * Self.day / 4
        case .monthlyRenewalEveryFiveMinutes: 30 * Self.day * 3 / 5
        default: 10 * Self.day
        }
    }

    /// A billing grace period's length for a subscription of `period`.
    public func gracePeriodLength(for period: SubscriptionPeriod) -> Int64 {
        let weekly = period.unit == .week || (period.unit == .day && period.value < 7)
        switch kind {
        case .calendar: return Int64(weekly ? 6 : 16) * Self.day
        case .scaled: return weekly ? scaledWeek * 6 / 7 : 15 * Self.day
        case .fixed: return fixedLength
        case .sandbox(let sandbox): return weekly ? sandbox.week * 6 / 7 : sandbox.month / 2
        }
    }

    /// How long billing retry lasts after the renewal date before the subscription expires.
    public var billingRetryLength: Int64 {
        switch kind {
        case .fixed: 2 * fixedLength
        case .sandbox(let sandbox): 2 * sandbox.month
        case .calendar, .scaled: 60 * Self.day
        }
    }
}
