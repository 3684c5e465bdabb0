import LedgerEntries
import LedgerMoney

/// The money sections of the all-accounts P&L being added up, account by account: each period's ``MoneyTally`` over
/// the day rows on or after its first day, and every account's balance over all its rows.
///
/// An account's money counts only when every section chosen for it carries money (v3): a v2 section has no credit or
/// money rows, so its account's balance and top-ups are not known, and it is counted in ``accountsWithoutMoney``
/// instead (its feature lines count as ever). Export again from each device to count its money.
///
/// A money row's tax, commission and proceeds are worked out here from its gross, with the app's ``StorefrontTax``
/// and the summary's commission; the figures the row itself carries are never counted.
struct SummaryMoneyTotals {
    private let tax: StorefrontTax
    private var tallies: [MoneyTally]
    private var balances = MoneyBalances()
    private var commissions: Set<CommissionRate> = []
    private var placeholders = false
    private(set) var accountsCounted = 0
    private(set) var accountsWithoutMoney = 0

    init(periods: Int, tax: StorefrontTax) {
        self.tax = tax
        tallies = Array(repeating: MoneyTally(), count: periods)
    }

    /// Adds one account's chosen sections: all of them, or (when one carries no money) none but the count.
    mutating func add(account sections: [SummarySelection.Chosen], startDays: [String]) throws {
        guard sections.allSatisfy({ $0.summary.carriesMoney }) else {
            accountsWithoutMoney += 1
            return
        }
        var balance = MicroCredits.zero
        for item in sections {
            let commission = item.summary.commission?.basisPoints ?? 0
            balance = try balance.adding(add(item.section, commission: commission, startDays: startDays))
            if let commission = item.summary.commission { commissions.insert(commission) }
            placeholders = placeholders || item.summary.moneyArePlaceholders == true
        }
        try balances.add(balance: balance.rawValue)
        accountsCounted += 1
    }

    /// Adds the totals of other accounts, added apart (on another core): the same as adding those accounts here.
    mutating func merge(_ other: SummaryMoneyTotals) throws {
        for index in tallies.indices { try tallies[index].merge(other.tallies[index]) }
        try balances.merge(other.balances)
        commissions.formUnion(other.commissions)
        placeholders = placeholders || other.placeholders
        accountsCounted += other.accountsCounted
        accountsWithoutMoney += other.accountsWithoutMoney
    }

    /// Adds a section's rows to the periods they fall in; its part of the account's balance (all time).
    private mutating func add(_ section: SummaryDevice, commission: Int, startDays: [String]) throws -> MicroCredits {
        var balance = MicroCredits.zero
        func periods(_ day: String) -> [Int] { tallies.indices.filter { $0 == 0 || day >= startDays[$0 - 1] } }
        for row in section.days {
            balance = try balance.subtracting(MicroCredits(row.charged)).adding(MicroCredits(row.givenBack))
            for index in periods(row.day) {
                try tallies[index].addUse(
                    feature: row.feature, charged: row.charged, givenBack: row.givenBack, cost: row.cost)
            }
        }
        for row in section.credit ?? [] {
            guard let kind = CreditKind(rawValue: row.kind) else { continue }
            balance =
                try row.isCredit
                ? balance.adding(MicroCredits(row.amount)) : balance.subtracting(MicroCredits(row.amount))
            for index in periods(row.day) { try tallies[index].addCredit(kind, count: row.count, amount: row.amount) }
        }
        for row in section.money ?? [] {
            guard let kind = MoneyKind(rawValue: row.kind) else { continue }
            let worked = try tax.figures(of: row, commissionBasisPoints: commission)
            for index in periods(row.day) {
                try tallies[index].addMoney(
                    kind, currency: row.currency, taxKnown: worked.taxKnown, count: row.count, split: worked.split)
            }
        }
        return balance
    }

    /// Each period's money section, in the order of the periods.
    func periods() throws -> [PeriodMoney] {
        // One commission when every account counted used the same; none named when they differ.
        let commission = commissions.count == 1 ? commissions.first : nil
        let context = MoneyTally.Context(
            commission: commission, placeholders: placeholders, accountsCounted: accountsCounted,
            accountsWithoutMoney: accountsWithoutMoney, balances: balances)
        return try tallies.map { try $0.period(context) }
    }
}
