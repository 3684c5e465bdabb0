import CreditLedger
import Foundation

/// A summary file that was left out, and why.
public struct RejectedSummary: Sendable, Equatable {
    public var file: String
    public var reason: String

    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }
}

/// The all-accounts P&L of a directory of summaries, and what was counted, superseded or refused.
public struct SummaryTotal: Sendable {
    /// The P&L, source `summaries`, one line per feature over the accounts counted.
    public var report: ProfitAndLossReport
    /// The files counted: each holds a device's section that counts (see ``SummarySelection``).
    public var counted: [String]
    /// Verified summaries none of whose sections counted: later ones cover every device they do.
    public var superseded: [String]
    /// Files that do not verify, named with the reason; never counted.
    public var rejected: [RejectedSummary]
}

/// Totals account summaries (`credit pnl --summaries DIR`): verifies each, names and leaves out each bad one, keeps
/// for every account and device the section that covers the most of that device's entries (so exports from any
/// devices at any time, merged or not, count every entry once; see ``AccountSummary``), and adds up the P&L of all of
/// them.
///
/// A summary made up under a new key of its own verifies and is counted: it cannot be told from a real account until
/// there is a registry of accounts.
///
/// The windows are whole UTC days: the 30 (or 7) days' window counts the rows whose day is on or after the day of
/// `asOf` less 30 (or 7) days, where `asOf` is the latest export counted unless given. (A ledger's own P&L counts
/// from that exact moment; a summary has days, not moments.) `analytics/pnl.sql` counts the same way.
public enum SummaryTotaliser {
    /// The summary files of `directory`: its entries ending in `.json`, by name, as `directory/name`.
    public static func files(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.sorted()
            .map { directory + "/" + $0 }
    }

    /// Every summary file of `directory` verified (on every core: a signature check and a JSON parse each): those
    /// that verify, and those that do not with the reason, both by file name.
    public static func verify(directory: String) throws -> (
        verified: [(file: String, summary: AccountSummary)], rejected: [RejectedSummary]
    ) {
        let files = try files(in: directory)
        let outcomes = Outcomes(count: files.count)
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            outcomes.set(index, Result { try verifiedSummary(at: files[index]) })
        }
        var verified: [(file: String, summary: AccountSummary)] = []
        var rejected: [RejectedSummary] = []
        for (file, outcome) in zip(files, outcomes.values) {
            switch outcome {
            case .success(let summary): verified.append((file, summary))
            case .failure(let error): rejected.append(RejectedSummary(file: file, reason: "\(error)"))
            case nil: rejected.append(RejectedSummary(file: file, reason: "not verified"))
            }
        }
        return (verified, rejected)
    }

    /// The summary in `file` if it verifies.
    public static func verifiedSummary(at file: String) throws -> AccountSummary {
        guard let data = FileManager.default.contents(atPath: file) else { throw SummaryError("cannot be read") }
        return try AccountSummary.verified(from: Array(data))
    }

    /// The all-accounts P&L of the summaries in `directory` as of `asOf` (the latest export counted when nil).
    public static func total(directory: String, asOf: Timestamp? = nil) throws -> SummaryTotal {
        let (verified, rejected) = try verify(directory: directory)
        var total = try self.total(verified, asOf: asOf)
        total.rejected = rejected + total.rejected
        return total
    }

    /// The all-accounts P&L of summaries already verified: for every account and device the section that covers
    /// the most of that device's entries (see ``AccountSummary``: the highest head, then `exportedAt`, then
    /// signature, then file), as of `asOf` (the latest export counted when nil).
    public static func total(_ verified: [(file: String, summary: AccountSummary)], asOf: Timestamp? = nil) throws
        -> SummaryTotal
    {
        let selection = SummarySelection(verified)
        let (report, leftOut) = try self.report(selection, asOf: asOf)
        let leftOutFiles = Set(leftOut.map(\.file))
        let counted = Set(selection.chosen.map(\.file)).subtracting(leftOutFiles).sorted()
        return SummaryTotal(report: report, counted: counted, superseded: selection.superseded, rejected: leftOut)
    }

    /// The P&L of the sections chosen, and the files left out because adding their account would make a total too
    /// large to count (checked arithmetic: each account is added whole, all its sections, or not at all).
    static func report(_ selection: SummarySelection, asOf given: Timestamp?) throws -> (
        ProfitAndLossReport, leftOut: [RejectedSummary]
    ) {
        let latestExport = selection.chosen.map(\.summary.exportedAt).max().flatMap { Timestamp(iso8601: $0) }
        let asOf = given ?? latestExport ?? Timestamp(milliseconds: 0)
        let threshold = ProfitAndLossReport.defaultOftenDeclinedBasisPoints
        let startDays = ProfitAndLossReport.windows.map {
            String(ProfitAndLossReport.windowStart(asOf: asOf, days: $0).iso8601.prefix(10))
        }
        var tallies = [ProfitAndLossTally](repeating: ProfitAndLossTally(), count: 1 + startDays.count)
        var money = SummaryMoneyTotals(periods: tallies.count)
        var leftOut: [RejectedSummary] = []
        var accounts = 0
        var placeholders = false
        for sections in selection.byAccount {
            do {
                var added = tallies
                for item in sections { try add(item.section, to: &added, startDays: startDays) }
                let touched = Set(sections.flatMap { $0.section.days.map(\.feature) })
                for tally in added { try tally.check(touched: touched) }
                var addedMoney = money
                try addedMoney.add(account: sections, startDays: startDays)
                _ = try addedMoney.periods()
                tallies = added
                money = addedMoney
                accounts += 1
                placeholders = placeholders || sections.contains { $0.summary.costsArePlaceholders }
            } catch LedgerError.overflow {
                for file in Set(sections.map(\.file)).sorted() {
                    leftOut.append(
                        RejectedSummary(
                            file: file, reason: "its figures would make a total too large to count, so it was left out"
                        ))
                }
            }
        }
        var periods = [try tallies[0].period("all", days: nil, since: nil, oftenDeclinedBasisPoints: threshold)]
        for (index, days) in ProfitAndLossReport.windows.enumerated() {
            periods.append(
                try tallies[index + 1].period(
                    "\(days)d", days: days, since: startDays[index] + "T00:00:00.000Z",
                    oftenDeclinedBasisPoints: threshold))
        }
        for (index, section) in try money.periods().enumerated() { periods[index].money = section }
        let report = ProfitAndLossReport(
            source: .summaries, asOf: asOf.iso8601, accounts: accounts, costsArePlaceholders: placeholders,
            oftenDeclinedBasisPoints: threshold, periods: periods)
        return (report, leftOut)
    }

    /// Adds every row of `section` to `tallies` (all time, then each window from its first day).
    private static func add(_ section: SummaryDevice, to tallies: inout [ProfitAndLossTally], startDays: [String])
        throws
    {
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

/// One slot per file for the verifying threads; each thread writes only its own index, under a lock.
private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<AccountSummary, any Error>?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ outcome: Result<AccountSummary, any Error>) {
        lock.lock()
        slots[index] = outcome
        lock.unlock()
    }

    var values: [Result<AccountSummary, any Error>?] {
        lock.lock()
        defer { lock.unlock() }
        return slots
    }
}
