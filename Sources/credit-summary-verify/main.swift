// credit-summary-verify DIR [--joined FILE]: the summary files of DIR that verify, one path a line on standard output;
// each one that does not, with the reason, on standard error; with --joined, the verified summaries themselves,
// joined into FILE, the very bytes checked. `analytics/pnl.sh` totals only that file, so DuckDB and Spark see the same
// summaries as `credit pnl --summaries DIR`, even if a file changes after it was checked. The same checks as `credit`:
// format (v3, or the older v2 and v1), signature, device sections, figures, keys, a member given twice. Exit 0 when
// DIR was read, 1 when it could not be (or FILE could not be written), 64 on a usage mistake.
import AccountSummaries
import DurableFiles
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
    options: [
        .string(
            .joined, "FILE",
            help: "also write the summaries that verify into FILE, a new file, one line each ({\"file\": PATH, "
                + "\"summary\": ITS JSON}): the bytes that were checked, for an engine to total")
    ],
    positionals: [PositionalSpec(.dir, help: "the directory of summaries (credit export --summary files)")],
    epilogue:
        "Exit status: 0 DIR was read; 1 it could not be, or FILE could not be written; 64 the command line is wrong.")

func fail(_ message: String, _ status: ExitStatus) -> Never {
    FileHandle.standardError.write(Data("credit-summary-verify: \(message)\n".utf8))
    exit(status.rawValue)
}

let directory: String
let joinedPath: String?
do {
    switch try spec.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help, .version:
        print(spec.helpText)
        exit(ExitStatus.success.rawValue)
    case .run(let args):
        directory = args.positional(.dir) ?? ""
        joinedPath = args.string(.joined)
    }
} catch {
    // The parser's words name the command ("credit-summary-verify needs DIR"), which `fail` already does: the one
    // word this program needs is said plainly instead.
    let message =
        error.kind == .missingArgument(PositionalName.dir.text)
        ? "which directory of summaries? Give DIR, a directory of `credit export --summary` files" : error.message
    fail("\(message)\nRun `credit-summary-verify --help` for how to use it.", ExitStatus(for: error))
}

let joined: JoinedSummaries?
do {
    joined = try joinedPath.map { try JoinedSummaries(creating: $0) }
} catch let error as FileError where error.errno == EEXIST {
    fail("\(joinedPath ?? "") already exists: the joined summaries go to a new file", .failure)
} catch {
    fail("\(error)", .failure)
}

do {
    let (verified, rejected) = try SummaryTotaliser.verify(directory: directory) { file, bytes in
        try joined?.append(file: file, bytes: bytes)
    }
    try joined?.finish()
    print(verified.joined(separator: "\n"), terminator: verified.isEmpty ? "" : "\n")
    for bad in rejected {
        FileHandle.standardError.write(Data("left out: \(bad.file): \(bad.reason)\n".utf8))
    }
} catch let error as FileError where error.path == joinedPath {
    SystemFileSystem().removeFile(error.path)
    fail("\(error)", .failure)
} catch {
    if let joinedPath { SystemFileSystem().removeFile(joinedPath) }
    fail("cannot read \(directory): \(error)", .failure)
}
