import LedgerEntries

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
    /// Every feature's sums together, kept as they are added (checked), so the period's total always fits.
    private var grand = Sums()
    private var reasons: [String: ReasonSums] = [:]

    public init() {}

    /// `a + b`, or ``LedgerError/overflow(_:)`` when a count would not fit in 64 bits (never a trap).
    private static func sum(_ a: Int64, _ b: Int64) throws -> Int64 {
        let (total, overflow) = a.addingReportingOverflow(b)
        guard !overflow else { throw LedgerError.overflow("a count of \(a) and \(b) more") }
        return total
    }

    /// Adds `count` charges of `feature`: `charged` and `cost` positive.
    public mutating func addCharges(
        feature: String, count: Int64 = 1, charged: MicroCredits, cost: MicroCredits
    ) throws {
        var sums = features[feature] ?? Sums()
        sums.charges = try Self.sum(sums.charges, count)
        sums.charged = try sums.charged.adding(charged)
        sums.cost = try sums.cost.adding(cost)
        grand.charges = try Self.sum(grand.charges, count)
        grand.charged = try grand.charged.adding(charged)
        grand.cost = try grand.cost.adding(cost)
        features[feature] = sums
    }

    /// Adds `count` declines of `feature` that gave back `givenBack` (positive).
    public mutating func addDeclines(feature: String, count: Int64 = 1, givenBack: MicroCredits) throws {
        var sums = features[feature] ?? Sums()
        sums.declined = try Self.sum(sums.declined, count)
        sums.givenBack = try sums.givenBack.adding(givenBack)
        grand.declined = try Self.sum(grand.declined, count)
        grand.givenBack = try grand.givenBack.adding(givenBack)
        features[feature] = sums
    }

    /// Adds `count` declines for `reason` (its key) that gave back `givenBack`.
    public mutating func addReason(_ reason: String, count: Int64 = 1, givenBack: MicroCredits) throws {
        var sums = reasons[reason] ?? ReasonSums()
        sums.count = try Self.sum(sums.count, count)
        sums.givenBack = try sums.givenBack.adding(givenBack)
        reasons[reason] = sums
    }

    /// Adds every sum of `other` (another part of the same period's rows, added apart, on another core): the same
    /// sums as adding its rows here, in any order; an overflow throws ``LedgerError/overflow(_:)``.
    public mutating func merge(_ other: ProfitAndLossTally) throws {
        for (feature, theirs) in other.features { features[feature] = try Self.merged(features[feature], theirs) }
        grand = try Self.merged(grand, other.grand)
        for (reason, theirs) in other.reasons {
            var sums = reasons[reason] ?? ReasonSums()
            sums.count = try Self.sum(sums.count, theirs.count)
            sums.givenBack = try sums.givenBack.adding(theirs.givenBack)
            reasons[reason] = sums
        }
    }

    private static func merged(_ ours: Sums?, _ theirs: Sums) throws -> Sums {
        var sums = ours ?? Sums()
        sums.charges = try sum(sums.charges, theirs.charges)
        sums.charged = try sums.charged.adding(theirs.charged)
        sums.declined = try sum(sums.declined, theirs.declined)
        sums.givenBack = try sums.givenBack.adding(theirs.givenBack)
        sums.cost = try sums.cost.adding(theirs.cost)
        return sums
    }

    /// The period's P&L: the features with a charge or a decline (most charged first, then by key), their total,
    /// and the declines by reason (most first, then by key).
    public func period(
        _ name: String, days: Int?, since: String?, oftenDeclinedBasisPoints: Int
    ) throws -> PeriodProfitAndLoss {
        var lines: [FeatureProfitAndLoss] = []
        for (feature, sums) in features where sums.charges > 0 || sums.declined > 0 {
            lines.append(try line(feature, sums, oftenDeclinedBasisPoints))
        }
        // Every feature's sums: a feature is only added with a charge or a decline, so this is their total.
        let total = grand
        lines.sort { ($1.charged, $0.feature) < ($0.charged, $1.feature) }
        let byReason = reasons.map {
            DeclineReasonCount(reason: $0, count: Int($1.count), givenBack: $1.givenBack.rawValue)
        }
        .sorted { ($1.count, $0.reason) < ($0.count, $1.reason) }
        return PeriodProfitAndLoss(
            period: name, days: days, since: since, features: lines,
            total: try line("total", total, oftenDeclinedBasisPoints), declinesByReason: byReason)
    }

    /// Throws ``LedgerError/overflow(_:)`` when the period's line of one of `touched`, or its total, could not be
    /// worked out: what adding one summary must not break, checked for the features it added to only.
    public func check(touched: some Sequence<String>) throws {
        for feature in touched {
            if let sums = features[feature] { _ = try line(feature, sums, 0) }
        }
        _ = try line("total", grand, 0)
    }

    private func line(_ feature: String, _ sums: Sums, _ threshold: Int) throws -> FeatureProfitAndLoss {
        try FeatureProfitAndLoss(
            feature: feature, charges: Int(sums.charges), charged: sums.charged.rawValue, declined: Int(sums.declined),
            givenBack: sums.givenBack.rawValue, cost: sums.cost.rawValue, oftenDeclinedBasisPoints: threshold)
    }
}
