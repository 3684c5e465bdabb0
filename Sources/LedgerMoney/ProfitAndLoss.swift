import LedgerEntries

/// The profit and loss of every feature: the owner's view of what each feature took, what serving it cost and what
/// is left, for all time, 30 days and 7 days.
///
/// ## Costs count every charge
///
/// The cost of a charge counts whether or not it was later declined: the work was served (the minutes were
/// transcribed, the model was called) even if the user then gave the charge back. So a feature that is often
/// declined shows both the takings it gave back and the cost it still had.
///
/// ## The JSON, stable
///
/// `credit pnl --json`, the summaries' totaliser and `analytics/pnl.sh --json` write this shape (keys sorted, every
/// key always present, `null` where a ratio has no denominator, amounts as whole micro-credits):
///
/// ```json
/// { "format": "voicedebrief-pnl-v1", "source": "ledger" | "summaries", "asOf": "2026-11-29T12:00:00.000Z",
///   "accounts": 1, "costsArePlaceholders": true, "oftenDeclinedBasisPoints": 2000,
///   "periods": [ { "period": "all" | "30d" | "7d", "days": null | 30 | 7, "since": null | "<ISO 8601>",
///                  "features": [ <line> ], "total": <line>,
///                  "declinesByReason": [ { "reason": "not-usable", "count": 1, "givenBack": 30000 } ],
///                  "money": <the period in money, see PeriodMoney> } ] }
/// ```
///
/// A line is `{ "feature", "charges", "charged", "declined", "declinedShareBasisPoints", "givenBack", "net",
/// "cost", "margin", "marginBasisPoints", "losesMoney", "oftenDeclined" }`. Features are most charged first, then by
/// key; reasons most frequent first, then by key. Shares and margins are in basis points (1% is 100), to the
/// nearest one, a half away from zero (1 of 6 is 1667). A feature loses money when its margin is below zero, and is often declined when at least
/// ``ProfitAndLossReport/defaultOftenDeclinedBasisPoints`` (20%, one charge in five) of its charges were declined.
///
/// From summaries of many accounts (``ProfitAndLossReport/Source/summaries``), the figures are only as good as the
/// summaries: one made up under a new key of its own cannot be told from a real account until there is a registry of
/// accounts.
public struct ProfitAndLossReport: Sendable, Equatable, Codable {
    /// Where the figures come from.
    public enum Source: String, Sendable, Codable {
        /// One account's own ledger.
        case ledger
        /// Signed account summaries, totalled.
        case summaries
    }

    /// The shape's name and version.
    public static let formatName = "voicedebrief-pnl-v1"
    /// The share of declined charges at or above which a feature stands out: 20%.
    public static let defaultOftenDeclinedBasisPoints = 2000
    /// The windows besides all time, in days, in the order written.
    public static let windows = [30, 7]

    /// Where the window of the last `days` days starts for a P&L as of `asOf`: midnight UTC at the start of the day
    /// `days` days before the as-of day. One definition for a ledger's P&L (`credit pnl --days 7`), the summaries'
    /// (`--summaries`) and `analytics/pnl.sh`, since a summary knows days, not moments: the last 7 days as of
    /// 29 November 12:00 are from 22 November 00:00.
    public static func windowStart(asOf: Timestamp, days: Int) -> Timestamp {
        let day = String(asOf.adding(days: -Int64(days)).iso8601.prefix(10))
        return Timestamp(iso8601: day + "T00:00:00.000Z") ?? asOf.adding(days: -Int64(days))
    }

    public var format: String = ProfitAndLossReport.formatName
    public var source: Source
    /// The moment the windows end (ISO 8601, UTC).
    public var asOf: String
    /// How many accounts are counted: 1 for a ledger.
    public var accounts: Int
    /// Whether any cost figure is a placeholder.
    public var costsArePlaceholders: Bool
    /// The threshold of ``FeatureProfitAndLoss/oftenDeclined``.
    public var oftenDeclinedBasisPoints: Int
    /// All time, then 30 days, then 7 days.
    public var periods: [PeriodProfitAndLoss]

    public init(
        source: Source, asOf: String, accounts: Int, costsArePlaceholders: Bool,
        oftenDeclinedBasisPoints: Int = ProfitAndLossReport.defaultOftenDeclinedBasisPoints,
        periods: [PeriodProfitAndLoss]
    ) {
        self.source = source
        self.asOf = asOf
        self.accounts = accounts
        self.costsArePlaceholders = costsArePlaceholders
        self.oftenDeclinedBasisPoints = oftenDeclinedBasisPoints
        self.periods = periods
    }

    /// The period named `name` (`all`, `30d`, `7d`).
    public func period(_ name: String) -> PeriodProfitAndLoss? { periods.first { $0.period == name } }
}

/// One period of a ``ProfitAndLossReport``.
public struct PeriodProfitAndLoss: Sendable, Equatable, Codable {
    /// `all`, `30d` or `7d`.
    public var period: String
    /// The window's length, nil for all time.
    public var days: Int?
    /// Where the window starts (ISO 8601), nil for all time.
    public var since: String?
    public var features: [FeatureProfitAndLoss]
    public var total: FeatureProfitAndLoss
    public var declinesByReason: [DeclineReasonCount]
    /// The period in money (see ``PeriodMoney``).
    public var money: PeriodMoney?

    public init(
        period: String, days: Int?, since: String?, features: [FeatureProfitAndLoss], total: FeatureProfitAndLoss,
        declinesByReason: [DeclineReasonCount], money: PeriodMoney? = nil
    ) {
        self.period = period
        self.days = days
        self.since = since
        self.features = features
        self.total = total
        self.declinesByReason = declinesByReason
        self.money = money
    }

    private enum CodingKeys: String, CodingKey { case period, days, since, features, total, declinesByReason, money }

    // Written by hand so that `days` and `since` are `null` for all time, never missing: a stable shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(period, forKey: .period)
        try container.encode(days, forKey: .days)
        try container.encode(since, forKey: .since)
        try container.encode(features, forKey: .features)
        try container.encode(total, forKey: .total)
        try container.encode(declinesByReason, forKey: .declinesByReason)
        try container.encode(money, forKey: .money)
    }
}

/// How many declines gave one reason, and what they gave back.
public struct DeclineReasonCount: Sendable, Equatable, Codable {
    /// The reason's key (`not-usable`, `not-needed`, `test`, `other`): never the user's words.
    public var reason: String
    public var count: Int
    /// In micro-credits, positive.
    public var givenBack: Int64

    public init(reason: String, count: Int, givenBack: Int64) {
        self.reason = reason
        self.count = count
        self.givenBack = givenBack
    }
}
