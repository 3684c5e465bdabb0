/// The subscription renewal rates Apple's sandbox offers a Sandbox Apple Account (App Store Connect, "Edit
/// subscription renewal rate"), and what each makes a period last in real time.
///
/// The figures are Apple's tables on the pages of the matching `SKTestSession.TimeRate` cases, each of which says
/// "The sandbox environment also supports this subscription renewal rate": a month lasts T, two months 2T, three 3T,
/// six 6T, a year 12T, and a week 3 minutes (T = 5 minutes), 10 minutes (30 minutes) or 15 minutes (an hour).
public enum SandboxRenewalRate: String, Sendable, CaseIterable, Codable {
    /// Apple's default: a monthly renewal every 5 minutes.
    case monthlyRenewalEveryFiveMinutes
    /// A monthly renewal every 30 minutes.
    case monthlyRenewalEveryThirtyMinutes
    /// A monthly renewal every hour.
    case monthlyRenewalEveryHour

    /// The name `--time-rate` takes and `control clock` shows.
    public var name: String { rawValue }

    /// The same rate in Xcode's StoreKit testing (its `_timeRate` number, shown by `control clock`).
    public var timeRate: TimeRate {
        switch self {
        case .monthlyRenewalEveryFiveMinutes: .monthlyRenewalEveryFiveMinutes
        case .monthlyRenewalEveryThirtyMinutes: .monthlyRenewalEveryThirtyMinutes
        case .monthlyRenewalEveryHour: .monthlyRenewalEveryHour
        }
    }

    private static let minute: Int64 = 60_000

    /// What a monthly renewal lasts, in real milliseconds (T).
    public var month: Int64 {
        switch self {
        case .monthlyRenewalEveryFiveMinutes: 5 * Self.minute
        case .monthlyRenewalEveryThirtyMinutes: 30 * Self.minute
        case .monthlyRenewalEveryHour: 60 * Self.minute
        }
    }

    /// What a weekly renewal lasts, in real milliseconds (Apple's table: 3, 10 and 15 minutes).
    public var week: Int64 {
        switch self {
        case .monthlyRenewalEveryFiveMinutes: 3 * Self.minute
        case .monthlyRenewalEveryThirtyMinutes: 10 * Self.minute
        case .monthlyRenewalEveryHour: 15 * Self.minute
        }
    }

    /// How many times a subscription renews after its purchase in the sandbox before it expires (Apple's "Testing
    /// an auto-renewable subscription": "auto-renewable subscriptions renew up to 12 times after the initial
    /// purchase").
    public static let renewalLimit = 12
}
