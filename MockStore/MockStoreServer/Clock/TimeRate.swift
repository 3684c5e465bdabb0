/// How fast subscription time runs against real time: Xcode's `SKTestSession.TimeRate`, with the integers a
/// `.storekit` file's `_timeRate` and StoreKitTest's `SKTestTimeRate` give each one.
///
/// The store has one virtual clock for every subscription, so each rate is one speed-up ``factor``: virtual
/// milliseconds per real millisecond. A "monthly renewal every T" rate makes 30 days of virtual time pass in T. A
/// "one renewal every T" rate makes the catalogue's shortest period `shortestPeriodDays` pass in T, and every
/// period lasts that long (``SubscriptionTiming``), so each subscription renews every T as Xcode's do; the
/// deprecated "T is one day" rates make one day pass in T.
public enum TimeRate: Int, Sendable, CaseIterable, Codable {
    case realTime = 0
    case oneHourIsOneDay = 1
    case thirtyMinutesIsOneDay = 2
    case fiveMinutesIsOneDay = 3
    case oneMinuteIsOneDay = 4
    case thirtySecondsIsOneDay = 5
    case oneSecondIsOneDay = 6
    case monthlyRenewalEveryHour = 10
    case monthlyRenewalEveryThirtyMinutes = 11
    case monthlyRenewalEveryFifteenMinutes = 12
    case monthlyRenewalEveryFiveMinutes = 13
    case monthlyRenewalEveryThirtySeconds = 15
    case oneRenewalEveryFifteenMinutes = 1000
    case oneRenewalEveryFiveMinutes = 1001
    case oneRenewalEveryMinute = 1002
    case oneRenewalEveryThirtySeconds = 1003
    case oneRenewalEveryTenSeconds = 1004
    case oneRenewalEveryTwoSeconds = 1005

    /// The Swift name (`monthlyRenewalEveryHour`), as `clock rate` takes and shows it.
    public var name: String { String(describing: self) }

    /// A rate by its name or its `_timeRate` integer.
    public init?(text: String) {
        if let number = Int(text), let rate = TimeRate(rawValue: number) {
            self = rate
        } else if let rate = Self.allCases.first(where: { $0.name.lowercased() == text.lowercased() }) {
            self = rate
        } else {
            return nil
        }
    }

    private static let day: Double = 86_400_000
    private static let month: Double = 30 * day

    /// The real milliseconds one "renewal" or "day" of the rate lasts, and the virtual time that is.
    private var realAndVirtual: (real: Double, virtual: Double?) {
        switch self {
        case .realTime: (1, 1)
        case .oneHourIsOneDay: (3_600_000, Self.day)
        case .thirtyMinutesIsOneDay: (1_800_000, Self.day)
        case .fiveMinutesIsOneDay: (300_000, Self.day)
        case .oneMinuteIsOneDay: (60_000, Self.day)
        case .thirtySecondsIsOneDay: (30_000, Self.day)
        case .oneSecondIsOneDay: (1_000, Self.day)
        case .monthlyRenewalEveryHour: (3_600_000, Self.month)
        case .monthlyRenewalEveryThirtyMinutes: (1_800_000, Self.month)
        case .monthlyRenewalEveryFifteenMinutes: (900_000, Self.month)
        case .monthlyRenewalEveryFiveMinutes: (300_000, Self.month)
        case .monthlyRenewalEveryThirtySeconds: (30_000, Self.month)
        case .oneRenewalEveryFifteenMinutes: (900_000, nil)
        case .oneRenewalEveryFiveMinutes: (300_000, nil)
        case .oneRenewalEveryMinute: (60_000, nil)
        case .oneRenewalEveryThirtySeconds: (30_000, nil)
        case .oneRenewalEveryTenSeconds: (10_000, nil)
        case .oneRenewalEveryTwoSeconds: (2_000, nil)
        }
    }

    /// Whether every renewal takes the same real time whatever the period (`oneRenewalEvery…`).
    public var isFixed: Bool { realAndVirtual.virtual == nil }

    /// Virtual milliseconds per real millisecond; `shortestPeriodDays` is the catalogue's shortest
    /// auto-renewable period in days (30 when it has none), which a fixed rate makes last one renewal.
    public func factor(shortestPeriodDays: Double = 30) -> Double {
        let (real, virtual) = realAndVirtual
        return (virtual ?? shortestPeriodDays * Self.day) / real
    }
}
