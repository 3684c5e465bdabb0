extension ProfitAndLossReport {
    /// The P&L of one ledger's `entries` (distinct by id, in any order) as of `asOf`: charges and refunds by the
    /// feature key they carry, each charge costed by `costs` in the unit of its price in `prices` (a transcript per
    /// started minute: the entry's quantity), declined or not. The windows are the entries written at or after
    /// ``windowStart(asOf:days:)`` (midnight UTC, 30 and 7 days before the as-of day), as summaries count them.
    public static func make(
        entries: some Sequence<LedgerEntry>, asOf: Timestamp, prices: some PriceList, costs: some CostList,
        oftenDeclinedBasisPoints: Int = ProfitAndLossReport.defaultOftenDeclinedBasisPoints
    ) throws -> ProfitAndLossReport {
        let table = CostTable(costs: costs, prices: prices)
        let starts = windows.map { windowStart(asOf: asOf, days: $0) }
        var tallies = [ProfitAndLossTally](repeating: ProfitAndLossTally(), count: 1 + starts.count)
        for entry in entries {
            guard let feature = entry.feature, entry.kind == .charge || entry.kind == .refund else { continue }
            let cost = entry.kind == .charge ? try table.cost(of: feature, quantity: entry.quantity) : .zero
            let amount = try entry.kind == .charge ? entry.amount.negated() : entry.amount
            for index in tallies.indices where index == 0 || entry.time >= starts[index - 1] {
                try tallies[index].add(entry, feature: feature, amount: amount, cost: cost)
            }
        }
        var periods = [
            try tallies[0].period("all", days: nil, since: nil, oftenDeclinedBasisPoints: oftenDeclinedBasisPoints)
        ]
        for (index, days) in windows.enumerated() {
            periods.append(
                try tallies[index + 1].period(
                    "\(days)d", days: days, since: starts[index].iso8601,
                    oftenDeclinedBasisPoints: oftenDeclinedBasisPoints))
        }
        return ProfitAndLossReport(
            source: .ledger, asOf: asOf.iso8601, accounts: 1, costsArePlaceholders: table.hasPlaceholders,
            oftenDeclinedBasisPoints: oftenDeclinedBasisPoints, periods: periods)
    }
}

extension ProfitAndLossTally {
    /// Adds one charge or refund of a ledger (`amount` positive).
    fileprivate mutating func add(_ entry: LedgerEntry, feature: String, amount: MicroCredits, cost: MicroCredits)
        throws
    {
        if entry.kind == .charge {
            try addCharges(feature: feature, charged: amount, cost: cost)
        } else {
            try addDeclines(feature: feature, givenBack: amount)
            try addReason(entry.reason ?? "other", givenBack: amount)
        }
    }
}

extension Ledger {
    /// This ledger's P&L as of `asOf` (the caller's clock: the command's now), from its distinct entries.
    public func profitAndLoss(asOf: Timestamp, prices: some PriceList, costs: some CostList) throws
        -> ProfitAndLossReport
    {
        try ProfitAndLossReport.make(entries: distinctEntriesUnordered, asOf: asOf, prices: prices, costs: costs)
    }
}
