// credit-summary-verify DIR: the summary files of DIR that verify, one path a line on standard output; each one that
// does not, with the reason, on standard error. `analytics/pnl.sh` counts only the files printed here, so DuckDB
// sees the same summaries as `credit pnl --summaries DIR` (which keeps the latest section per account and device
// itself, as the SQL does). The same checks as `credit`: format (v3, or the older v2 and v1), signature, device sections,
// figures, keys, a member given twice. Exit 0 when DIR was read, 1 when it could not be, 64 on a usage mistake.
import AccountSummaries
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 1, !arguments[0].hasPrefix("-") else {
    FileHandle.standardError.write(Data("usage: credit-summary-verify DIR\n".utf8))
    exit(64)
}
do {
    let (verified, rejected) = try SummaryTotaliser.verify(directory: arguments[0])
    print(verified.map(\.file).joined(separator: "\n"), terminator: verified.isEmpty ? "" : "\n")
    for bad in rejected {
        FileHandle.standardError.write(Data("left out: \(bad.file): \(bad.reason)\n".utf8))
    }
} catch {
    FileHandle.standardError.write(Data("credit-summary-verify: cannot read \(arguments[0]): \(error)\n".utf8))
    exit(1)
}
