import LedgerEntries

extension ProfitAndLossReport {
    /// The P&L of one ledger's `entries` (distinct by id, in any order) as of `asOf`: charges and refunds by the
    /// feature key they carry, each charge costed by `costs` in the unit of its price in `prices` (a transcript per
    /// started minute: the entry's quantity), declined or not; and each period in money under `money` (see
    /// ``PeriodMoney``: top-ups priced from their signed transactions). The windows are the entries written at or
    /// after ``windowStart(asOf:days:)`` (midnight UTC, 30 and 7 days before the as-of day), as summaries count them.
    public static func make(
        entries: some Sequence<LedgerEntry>, asOf: Timestamp, prices: some PriceList, costs: some CostList,
        money settings: any MoneySettings = UnstatedMoneySettings(),
        oftenDeclinedBasisPoints: Int = ProfitAndLossReport.defaultOftenDeclinedBasisPoints
    ) throws -> ProfitAndLossReport {
        let entries = Array(entries)
        let table = CostTable(costs: costs, prices: prices)
        let reader = MoneyReader(entries: entries, settings: settings)
        let starts = windows.map { windowStart(asOf: asOf, days: $0) }
        var tallies = [ProfitAndLossTally](repeating: ProfitAndLossTally(), count: 1 + starts.count)
        var money = [MoneyTally](repeating: MoneyTally(), count: tallies.count)
        var balance = MicroCredits.zero
        for entry in entries {
            balance = try balance.adding(entry.amount)
            let periods = tallies.indices.filter { $0 == 0 || entry.time >= starts[$0 - 1] }
            guard let feature = entry.feature, entry.kind == .charge || entry.kind == .refund else {
                let worth = try reader.money(of: entry)
                for index in periods { try money[index].add(worth) }
                continue
            }
            let cost = entry.kind == .charge ? try table.cost(of: feature, quantity: entry.quantity) : .zero
            let amount = try entry.kind == .charge ? entry.amount.negated() : entry.amount
            for index in periods {
                try tallies[index].add(entry, feature: feature, amount: amount, cost: cost)
                try money[index].addUse(entry, feature: feature, amount: amount, cost: cost)
            }
        }
        var balances = MoneyBalances()
        try balances.add(balance: balance.rawValue)
        let context = MoneyTally.Context(
            commission: settings.commission,
            placeholders: settings.isPlaceholder, accountsCounted: 1, accountsWithoutMoney: 0, balances: balances)
        var periods = [
            try tallies[0].period("all", days: nil, since: nil, oftenDeclinedBasisPoints: oftenDeclinedBasisPoints)
        ]
        for (index, days) in windows.enumerated() {
            periods.append(
                try tallies[index + 1].period(
                    "\(days)d", days: days, since: starts[index].iso8601,
                    oftenDeclinedBasisPoints: oftenDeclinedBasisPoints))
        }
        for index in periods.indices { periods[index].money = try money[index].period(context) }
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

extension MoneyTally {
    /// Adds one charge or refund of a ledger as credit used (`amount` positive).
    fileprivate mutating func addUse(_ entry: LedgerEntry, feature: String, amount: MicroCredits, cost: MicroCredits)
        throws
    {
        if entry.kind == .charge {
            try addUse(feature: feature, charged: amount.rawValue, givenBack: 0, cost: cost.rawValue)
        } else {
            try addUse(feature: feature, charged: 0, givenBack: amount.rawValue, cost: 0)
        }
    }
}

extension ProfitAndLossReport {
    /// `ledger`'s P&L as of `asOf` (the caller's clock: the command's now), from its distinct entries, in money
    /// under `money`.
    public static func make(
        ledger: Ledger, asOf: Timestamp, prices: some PriceList, costs: some CostList,
        money: any MoneySettings = UnstatedMoneySettings()
    ) throws -> ProfitAndLossReport {
        try make(entries: ledger.distinctEntriesUnordered, asOf: asOf, prices: prices, costs: costs, money: money)
    }
}
