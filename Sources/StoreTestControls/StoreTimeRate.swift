import StoreWire

/// Xcode's time rates (`SKTestSession.timeRate`, the `.storekit` file's `_timeRate`), by the names the store takes
/// (`clock rate RATE`) and shows (`control clock`'s `rate`).
///
/// Decodes any value: one the store does not know is ``unrecognized(_:)``, kept as sent.
public enum StoreTimeRate: WireStringEnum {
    case realTime, oneHourIsOneDay, thirtyMinutesIsOneDay, fiveMinutesIsOneDay, oneMinuteIsOneDay
    case thirtySecondsIsOneDay, oneSecondIsOneDay, monthlyRenewalEveryHour, monthlyRenewalEveryThirtyMinutes
    case monthlyRenewalEveryFifteenMinutes, monthlyRenewalEveryFiveMinutes, monthlyRenewalEveryThirtySeconds
    case oneRenewalEveryFifteenMinutes, oneRenewalEveryFiveMinutes, oneRenewalEveryMinute
    case oneRenewalEveryThirtySeconds, oneRenewalEveryTenSeconds, oneRenewalEveryTwoSeconds
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [
        .realTime, .oneHourIsOneDay, .thirtyMinutesIsOneDay, .fiveMinutesIsOneDay, .oneMinuteIsOneDay,
        .thirtySecondsIsOneDay, .oneSecondIsOneDay, .monthlyRenewalEveryHour, .monthlyRenewalEveryThirtyMinutes,
        .monthlyRenewalEveryFifteenMinutes, .monthlyRenewalEveryFiveMinutes, .monthlyRenewalEveryThirtySeconds,
        .oneRenewalEveryFifteenMinutes, .oneRenewalEveryFiveMinutes, .oneRenewalEveryMinute,
        .oneRenewalEveryThirtySeconds, .oneRenewalEveryTenSeconds, .oneRenewalEveryTwoSeconds,
    ]

    public var rawValue: String {
        switch self {
        case .realTime: "realTime"
        case .oneHourIsOneDay: "oneHourIsOneDay"
        case .thirtyMinutesIsOneDay: "thirtyMinutesIsOneDay"
        case .fiveMinutesIsOneDay: "fiveMinutesIsOneDay"
        case .oneMinuteIsOneDay: "oneMinuteIsOneDay"
        case .thirtySecondsIsOneDay: "thirtySecondsIsOneDay"
        case .oneSecondIsOneDay: "oneSecondIsOneDay"
        case .monthlyRenewalEveryHour: "monthlyRenewalEveryHour"
        case .monthlyRenewalEveryThirtyMinutes: "monthlyRenewalEveryThirtyMinutes"
        case .monthlyRenewalEveryFifteenMinutes: "monthlyRenewalEveryFifteenMinutes"
        case .monthlyRenewalEveryFiveMinutes: "monthlyRenewalEveryFiveMinutes"
        case .monthlyRenewalEveryThirtySeconds: "monthlyRenewalEveryThirtySeconds"
        case .oneRenewalEveryFifteenMinutes: "oneRenewalEveryFifteenMinutes"
        case .oneRenewalEveryFiveMinutes: "oneRenewalEveryFiveMinutes"
        case .oneRenewalEveryMinute: "oneRenewalEveryMinute"
        case .oneRenewalEveryThirtySeconds: "oneRenewalEveryThirtySeconds"
        case .oneRenewalEveryTenSeconds: "oneRenewalEveryTenSeconds"
        case .oneRenewalEveryTwoSeconds: "oneRenewalEveryTwoSeconds"
        case .unrecognized(let value): value
        }
    }
}
