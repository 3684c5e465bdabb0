import Foundation
import LedgerEntries
import LedgerMoney

/// The sums of the sections chosen, account by account: the P&L's tallies (all time, then each window from its first
/// day), the money, how many accounts were counted, and the files left out because adding their account would make
/// a total too large to count.
///
/// ``serial(_:startDays:tax:)`` is the definition: accounts in account order, each added whole (all its sections) or
/// not at all. ``of(_:startDays:tax:)`` gives the same sums on every core whenever that is certain, and the definition's
/// otherwise.
struct SummarySums {
    var tallies: [ProfitAndLossTally]
    var money: SummaryMoneyTotals
    var accounts = 0
    var placeholders = false
    var leftOut: [RejectedSummary] = []

    init(periods: Int, tax: StorefrontTax) {
        tallies = Array(repeating: ProfitAndLossTally(), count: periods)
        money = SummaryMoneyTotals(periods: periods, tax: tax)
    }

    /// The sums of `accounts` (each an account's chosen sections, in account order): ``parallel(_:startDays:tax:)``
    /// when it can answer, else ``serial(_:startDays:tax:)``. The same either way.
    static func of(_ accounts: [[SummarySelection.Chosen]], startDays: [String], tax: StorefrontTax) throws
        -> SummarySums
    {
        if let sums = parallel(accounts, startDays: startDays, tax: tax) { return sums }
        return try serial(accounts, startDays: startDays, tax: tax)
    }

    /// The definition, on one core: each account added whole, all its sections, when with it every sum still fits
    /// and every line of the P&L and of the money can still be worked out; otherwise its files are left out, named
    /// (checked arithmetic: never a trap), and the next account is tried.
    static func serial(_ accounts: [[SummarySelection.Chosen]], startDays: [String], tax: StorefrontTax) throws
        -> SummarySums
    {
        var sums = SummarySums(periods: 1 + startDays.count, tax: tax)
        for sections in accounts {
            do {
                var added = sums.tallies
                for item in sections { try add(item.section, to: &added, startDays: startDays) }
                let touched = Set(sections.flatMap { $0.section.days.map(\.feature) })
                for tally in added { try tally.check(touched: touched) }
                var addedMoney = sums.money
                try addedMoney.add(account: sections, startDays: startDays)
                _ = try addedMoney.periods()
                sums.tallies = added
                sums.money = addedMoney
                sums.accounts += 1
                sums.placeholders = sums.placeholders || sections.contains { $0.summary.costsArePlaceholders }
            } catch LedgerError.overflow {
                for file in Set(sections.map(\.file)).sorted() {
                    sums.leftOut.append(
                        RejectedSummary(
                            file: file, reason: "its figures would make a total too large to count, so it was left out"
                        ))
                }
            }
        }
        return sums
    }

    /// The same sums on every core, or nil when they might not be the definition's.
    ///
    /// The accounts are cut into runs, each run's sums are added apart, and the runs' sums are merged: exact
    /// integers, so the order they are added in does not matter. That is the definition's answer when the
    /// definition leaves no account out; ``SummaryBounds`` shows that it does not (every sum of every run of
    /// accounts from the first fits and every line of it can be worked out), or this gives nil. Any overflow here
    /// gives nil too: the definition then decides which accounts are left out.
    static func parallel(_ accounts: [[SummarySelection.Chosen]], startDays: [String], tax: StorefrontTax)
        -> SummarySums?
    {
        guard !accounts.isEmpty else { return SummarySums(periods: 1 + startDays.count, tax: tax) }
        // Several runs a core, so that a core held up by another process does not hold up the whole.
        let runs = min(accounts.count, max(1, ProcessInfo.processInfo.activeProcessorCount) * 8)
        let parts = ConcurrentSlots<Part?>(count: runs)
        DispatchQueue.concurrentPerform(iterations: runs) { run in
            let range = (accounts.count * run / runs)..<(accounts.count * (run + 1) / runs)
            parts.set(run, Part(accounts[range], startDays: startDays, tax: tax))
        }
        var sums = SummarySums(periods: 1 + startDays.count, tax: tax)
        var bounds = SummaryBounds(periods: 1 + startDays.count)
        for part in parts.values {
            guard let part = part ?? nil else { return nil }
            do {
                try sums.merge(part.sums)
            } catch {
                return nil
            }
            // In account order: the bounds hold after each account, so after each prefix of the definition's.
            for account in part.bounds { guard bounds.admit(account) else { return nil } }
        }
        return sums
    }

    /// One run of accounts added apart, with each account's bounds in order.
    private struct Part {
        var sums: SummarySums
        var bounds: [AccountBounds]

        /// Nil when a sum would overflow.
        init?(_ accounts: ArraySlice<[SummarySelection.Chosen]>, startDays: [String], tax: StorefrontTax) {
            sums = SummarySums(periods: 1 + startDays.count, tax: tax)
            bounds = []
            bounds.reserveCapacity(accounts.count)
            do {
                for sections in accounts {
                    for item in sections { try SummarySums.add(item.section, to: &sums.tallies, startDays: startDays) }
                    try sums.money.add(account: sections, startDays: startDays)
                    sums.accounts += 1
                    sums.placeholders = sums.placeholders || sections.contains { $0.summary.costsArePlaceholders }
                    bounds.append(try AccountBounds(sections, startDays: startDays))
                }
            } catch {
                return nil
            }
        }
    }

    /// Adds the sums of other accounts, added apart.
    private mutating func merge(_ other: SummarySums) throws {
        for index in tallies.indices { try tallies[index].merge(other.tallies[index]) }
        try money.merge(other.money)
        accounts += other.accounts
        placeholders = placeholders || other.placeholders
        leftOut += other.leftOut
    }

    /// Adds every row of `section` to `tallies` (all time, then each window from its first day).
    static func add(_ section: SummaryDevice, to tallies: inout [ProfitAndLossTally], startDays: [String]) throws {
        for row in section.days {
            for index in tallies.indices where index == 0 || row.day >= startDays[index - 1] {
                try tallies[index].addCharges(
                    feature: row.feature, count: row.charges, charged: MicroCredits(row.charged),
                    cost: MicroCredits(row.cost))
                try tallies[index].addDeclines(
                    feature: row.feature, count: row.declined, givenBack: MicroCredits(row.givenBack))
            }
        }
        for row in section.declines {
            for index in tallies.indices where index == 0 || row.day >= startDays[index - 1] {
                try tallies[index].addReason(row.reason, count: row.count, givenBack: MicroCredits(row.givenBack))
            }
        }
    }
}
