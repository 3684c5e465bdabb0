// credit-summary-verify DIR: the summary files of DIR that verify, one path a line on standard output; each one that
// does not, with the reason, on standard error. `analytics/pnl.sh` counts only the files printed here, so DuckDB
// sees the same summaries as `credit pnl --summaries DIR` (which keeps the latest section per account and device
// itself, as the SQL does). The same checks as `credit`: format (v3, or the older v2 and v1), signature, device sections,
// figures, keys, a member given twice. Exit 0 when DIR was read, 1 when it could not be, 64 on a usage mistake.
import AccountSummaries
import Foundation
import OptionParsing
import Platform

let spec = CommandSpec(
    "credit-summary-verify", summary: "the account summaries in a directory that verify",
    discussion: """
        Prints the path of each summary file in DIR that verifies (its signature, format, device sections, figures
        and keys, as `credit pnl --summaries` checks them), one a line; each file that does not is named on standard
        error with the reason ("left out: FILE: why").
        """,
    positionals: [PositionalSpec(.dir, help: "the directory of summaries (credit export --summary files)")],
    epilogue: "Exit status: 0 DIR was read; 1 it could not be; 64 the command line is wrong.")

func fail(_ message: String, _ status: ExitStatus) -> Never {
    FileHandle.standardError.write(Data("credit-summary-verify: \(message)\n".utf8))
    exit(status.rawValue)
}

let directory: String
do {
    switch try spec.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help, .version:
        print(spec.helpText)
        exit(ExitStatus.success.rawValue)
    case .run(let args):
        directory = args.positional(.dir) ?? ""
    }
} catch {
    fail("\(error.message)\nRun `credit-summary-verify --help` for how to use it.", ExitStatus(for: error))
}
do {
    let (verified, rejected) = try SummaryTotaliser.verify(directory: directory)
    print(verified.map(\.file).joined(separator: "\n"), terminator: verified.isEmpty ? "" : "\n")
    for bad in rejected {
        FileHandle.standardError.write(Data("left out: \(bad.file): \(bad.reason)\n".utf8))
    }
} catch {
    fail("cannot read \(directory): \(error)", .failure)
}
