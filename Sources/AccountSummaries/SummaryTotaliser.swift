import DurableFiles
import Foundation
import LedgerEntries
import LedgerMoney

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
/// them. The verification and the sums run on every core (``SummarySums``); the result is the same as on one.
///
/// A summary made up under a new key of its own verifies and is counted: it cannot be told from a real account until
/// there is a registry of accounts.
///
/// The windows are whole UTC days: the 30 (or 7) days' window counts the rows whose day is on or after the day of
/// `asOf` less 30 (or 7) days, where `asOf` is the latest export counted unless given. (A ledger's own P&L counts
/// from that exact moment; a summary has days, not moments.) `analytics/pnl.sql` counts the same way.
public enum SummaryTotaliser {
    /// The summary files of `directory`: its entries ending in `.json`, by name, as `directory/name`.
    /// A directory that cannot be listed is a ``SummaryError`` in words ("there is no such file or directory").
    public static func files(in directory: String) throws -> [String] {
        let names: [String]
        do {
            names = try Files.list(directory)
        } catch let error as FileError {
            switch error.errno {
            case ENOENT: throw SummaryError("there is no such file or directory")
            case ENOTDIR: throw SummaryError("it is not a directory")
            default: throw SummaryError("it cannot be listed (\(String(cString: strerror(error.errno)).lowercased()))")
            }
        }
        return names.filter { $0.hasSuffix(".json") }.map { directory + "/" + $0 }
    }

    /// Every summary file of `directory` verified (on every core: a signature check and a JSON parse each): those
    /// that verify, and those that do not with the reason, both by file name.
    public static func verify(directory: String) throws -> (
        verified: [(file: String, summary: AccountSummary)], rejected: [RejectedSummary]
    ) {
        let files = try files(in: directory)
        var verified: [(file: String, summary: AccountSummary)] = []
        var rejected: [RejectedSummary] = []
        for (file, outcome) in zip(files, outcomes(of: files, verifiedSummary)) {
            switch outcome {
            case .success(let summary): verified.append((file, summary))
            case .failure(let error): rejected.append(RejectedSummary(file: file, reason: "\(error)"))
            }
        }
        return (verified, rejected)
    }

    /// Every summary file of `directory` verified, as ``verify(directory:)`` does, each one that verifies handed to
    /// `take` in file order with the very bytes that were checked (never read again, so a file changed after its
    /// check changes nothing handed on). At most ``batch`` files are held at once, however many there are.
    public static func verify(directory: String, handing take: (_ file: String, _ bytes: [UInt8]) throws -> Void)
        throws -> (verified: [String], rejected: [RejectedSummary])
    {
        let files = try files(in: directory)
        var verified: [String] = []
        var rejected: [RejectedSummary] = []
        for start in stride(from: 0, to: files.count, by: batch) {
            let part = Array(files[start..<min(start + batch, files.count)])
            for (file, outcome) in zip(part, outcomes(of: part, verifiedBytes)) {
                switch outcome {
                case .success(let bytes):
                    try take(file, bytes)
                    verified.append(file)
                case .failure(let error): rejected.append(RejectedSummary(file: file, reason: "\(error)"))
                }
            }
        }
        return (verified, rejected)
    }

    /// `check` of each of `files`, on every core, in the files' order.
    private static func outcomes<Value: Sendable>(of files: [String], _ check: @Sendable (String) throws -> Value)
        -> [Result<Value, any Error>]
    {
        let slots = ConcurrentSlots<Result<Value, any Error>>(count: files.count)
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            slots.set(index, Result { try check(files[index]) })
        }
        return slots.values.map { $0 ?? .failure(SummaryError("not verified")) }
    }

    /// How many files ``verify(directory:handing:)`` holds at once: enough to keep every core busy.
    static let batch = 1_024

    /// The summary in `file` if it verifies. The file is read through the file seam: a link, a directory or a pipe
    /// named `.json` is refused, never followed or waited on.
    public static func verifiedSummary(at file: String) throws -> AccountSummary {
        // Read in place: the file's bytes are not copied again.
        try summaryFile(file).withUnsafeBufferPointer { try AccountSummary.verified(from: $0) }
    }

    /// The bytes of `file` if they are a summary that verifies.
    static func verifiedBytes(at file: String) throws -> [UInt8] {
        let bytes = try summaryFile(file)
        _ = try bytes.withUnsafeBufferPointer { try AccountSummary.verified(from: $0) }
        return bytes
    }

    /// The bytes of `file`, read through the file seam; a file that cannot be read is a ``SummaryError`` in words.
    private static func summaryFile(_ file: String) throws -> [UInt8] {
        do {
            return try Files.readAll(file)
        } catch let error as FileError {
            throw SummaryError(unreadable(error))
        }
    }

    /// Why a summary file could not be read, in words that follow its name.
    static func unreadable(_ error: FileError) -> String {
        if error.isSymbolicLink { return "is a symbolic link, and links are not followed" }
        if let found = error.found { return "is \(found), not a file" }
        return "cannot be read (\(String(cString: strerror(error.errno))))"
    }

    /// The all-accounts P&L of the summaries in `directory` as of `asOf` (the latest export counted when nil), each
    /// money row's tax from the app's table `tax` (see ``StorefrontTax``).
    public static func total(directory: String, asOf: Timestamp? = nil, tax: StorefrontTax) throws -> SummaryTotal {
        let (verified, rejected) = try verify(directory: directory)
        var total = try self.total(verified, asOf: asOf, tax: tax)
        total.rejected = rejected + total.rejected
        return total
    }

    /// The all-accounts P&L of summaries already verified: for every account and device the section that covers
    /// the most of that device's entries (see ``AccountSummary``: the highest head, then `exportedAt`, then
    /// signature, then file), as of `asOf` (the latest export counted when nil), each money row's tax from the
    /// app's table `tax` (see ``StorefrontTax``).
    public static func total(
        _ verified: [(file: String, summary: AccountSummary)], asOf: Timestamp? = nil, tax: StorefrontTax
    ) throws -> SummaryTotal {
        let selection = SummarySelection(verified)
        let (report, leftOut) = try self.report(selection, asOf: asOf, tax: tax)
        let leftOutFiles = Set(leftOut.map(\.file))
        let counted = Set(selection.chosen.map(\.file)).subtracting(leftOutFiles).sorted()
        return SummaryTotal(report: report, counted: counted, superseded: selection.superseded, rejected: leftOut)
    }

    /// The P&L of the sections chosen, and the files left out because adding their account would make a total too
    /// large to count (checked arithmetic: each account is added whole, all its sections, or not at all).
    static func report(_ selection: SummarySelection, asOf given: Timestamp?, tax: StorefrontTax) throws -> (
        ProfitAndLossReport, leftOut: [RejectedSummary]
    ) {
        let latestExport = selection.chosen.map(\.summary.exportedAt).max().flatMap { Timestamp(iso8601: $0) }
        let asOf = given ?? latestExport ?? Timestamp(milliseconds: 0)
        let threshold = ProfitAndLossReport.defaultOftenDeclinedBasisPoints
        let startDays = ProfitAndLossReport.windows.map {
            String(ProfitAndLossReport.windowStart(asOf: asOf, days: $0).iso8601.prefix(10))
        }
        let sums = try SummarySums.of(selection.byAccount, startDays: startDays, tax: tax)
        var periods = [try sums.tallies[0].period("all", days: nil, since: nil, oftenDeclinedBasisPoints: threshold)]
        for (index, days) in ProfitAndLossReport.windows.enumerated() {
            periods.append(
                try sums.tallies[index + 1].period(
                    "\(days)d", days: days, since: startDays[index] + "T00:00:00.000Z",
                    oftenDeclinedBasisPoints: threshold))
        }
        for (index, section) in try sums.money.periods().enumerated() { periods[index].money = section }
        let report = ProfitAndLossReport(
            source: .summaries, asOf: asOf.iso8601, accounts: sums.accounts, costsArePlaceholders: sums.placeholders,
            oftenDeclinedBasisPoints: threshold, periods: periods)
        return (report, sums.leftOut)
    }
}
