/// The sums of one period's P&L being added up, by feature and by decline reason: what a ledger's entries and what
/// account summaries' day rows both add into, so the two P&Ls are worked out by one piece of code.
public struct ProfitAndLossTally: Sendable {
    private struct Sums: Sendable {
        var charges: Int64 = 0
        var charged = MicroCredits.zero
        var declined: Int64 = 0
        var givenBack = MicroCredits.zero
        var cost = MicroCredits.zero
    }

    private struct ReasonSums: Sendable {
        var count: Int64 = 0
        var givenBack = MicroCredits.zero
    }

    private var features: [String: Sums] = [:]
    private var reasons: [String: ReasonSums] = [:]

    public init() {}

    /// Adds `count` charges of `feature`: `charged` and `cost` positive.
    public mutating func addCharges(
        feature: String, count: Int64 = 1, charged: MicroCredits, cost: MicroCredits
    ) throws {
        var sums = features[feature] ?? Sums()
        sums.charges += count
        sums.charged = try sums.charged.adding(charged)
        sums.cost = try sums.cost.adding(cost)
        features[feature] = sums
    }

    /// Adds `count` declines of `feature` that gave back `givenBack` (positive).
    public mutating func addDeclines(feature: String, count: Int64 = 1, givenBack: MicroCredits) throws {
        var sums = features[feature] ?? Sums()
        sums.declined += count
        sums.givenBack = try sums.givenBack.adding(givenBack)
        features[feature] = sums
    }

    /// Adds `count` declines for `reason` (its key) that gave back `givenBack`.
    public mutating func addReason(_ reason: String, count: Int64 = 1, givenBack: MicroCredits) throws {
        var sums = reasons[reason] ?? ReasonSums()
        sums.count += count
        sums.givenBack = try sums.givenBack.adding(givenBack)
        reasons[reason] = sums
    }

    /// The period's P&L: the features with a charge or a decline (most charged first, then by key), their total,
    /// and the declines by reason (most first, then by key).
    public func period(
        _ name: String, days: Int?, since: String?, oftenDeclinedBasisPoints: Int
    ) throws -> PeriodProfitAndLoss {
        var lines: [FeatureProfitAndLoss] = []
        var total = Sums()
        for (feature, sums) in features where sums.charges > 0 || sums.declined > 0 {
            lines.append(try line(feature, sums, oftenDeclinedBasisPoints))
            total.charges += sums.charges
            total.charged = try total.charged.adding(sums.charged)
            total.declined += sums.declined
            total.givenBack = try total.givenBack.adding(sums.givenBack)
            total.cost = try total.cost.adding(sums.cost)
        }
        lines.sort { ($1.charged, $0.feature) < ($0.charged, $1.feature) }
        let byReason = reasons.map {
            DeclineReasonCount(reason: $0, count: Int($1.count), givenBack: $1.givenBack.rawValue)
        }
        .sorted { ($1.count, $0.reason) < ($0.count, $1.reason) }
        return PeriodProfitAndLoss(
            period: name, days: days, since: since, features: lines,
            total: try line("total", total, oftenDeclinedBasisPoints), declinesByReason: byReason)
    }

    private func line(_ feature: String, _ sums: Sums, _ threshold: Int) throws -> FeatureProfitAndLoss {
        try FeatureProfitAndLoss(
            feature: feature, charges: Int(sums.charges), charged: sums.charged.rawValue, declined: Int(sums.declined),
            givenBack: sums.givenBack.rawValue, cost: sums.cost.rawValue, oftenDeclinedBasisPoints: threshold)
    }
}
