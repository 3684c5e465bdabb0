import StoreKitCatalogue

/// How long a subscription's periods, grace period and billing retry last in virtual time at a time rate, as
/// Xcode's StoreKit testing (`SKTestSession.TimeRate`) has them:
///
/// - real time and the deprecated "T is one day" rates: calendar periods; a grace period of 6 days (weekly
///   subscriptions) or 16 days; billing retry 60 days.
/// - "a monthly renewal every T" (scaled): Apple's table for each renewal period (weekly T/3, monthly T, two
///   months 2T, three 3T, six 6T, a year 12T), so at the clock's speed (30 days in T) a week lasts 10 days, a
///   month 30 and a year 360; a grace period of 9 days (weekly) or 15; billing retry 60 days.
/// - "one renewal every T" (fixed): every period, whatever its length, lasts T; a grace period T; billing retry
///   2T. At the clock's speed T is the catalogue's shortest period (``VirtualClock/shortestPeriodDays``).
public struct SubscriptionTiming: Sendable, Equatable {
    public var rate: TimeRate
    /// What one fixed-rate renewal lasts in virtual days.
    public var shortestPeriodDays: Double

    public init(rate: TimeRate = .realTime, shortestPeriodDays: Double = 30) {
        self.rate = rate
        self.shortestPeriodDays = shortestPeriodDays
    }

    static let day: Int64 = 86_400_000

    private enum Kind { case calendar, scaled, fixed }

    private var kind: Kind {
        switch rate {
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
            let days: Int
            switch period.unit {
            case .day: days = period.value
            case .week: days = period.value * 10
            case .month: days = period.value * 30
            case .year: days = period.value * 360
            }
            return date + Int64(days) * Self.day * Int64(count)
        }
    }

    /// A billing grace period's length for a subscription of `period`.
    public func gracePeriodLength(for period: SubscriptionPeriod) -> Int64 {
        let weekly = period.unit == .week || (period.unit == .day && period.value < 7)
        switch kind {
        case .calendar: return Int64(weekly ? 6 : 16) * Self.day
        case .scaled: return Int64(weekly ? 9 : 15) * Self.day
        case .fixed: return fixedLength
        }
    }

    /// How long billing retry lasts after the renewal date before the subscription expires.
    public var billingRetryLength: Int64 {
        kind == .fixed ? 2 * fixedLength : 60 * Self.day
    }
}
