import OptionParsing
import Platform

/// What the bench was asked to do.
struct BenchOptions {
    /// Entries in the big ledger (cold load, memory, in-memory sums, verify; half each for the merge).
    var entries = 1_000_000
    var quick = false
    /// Where the data goes (a new temporary directory by default), and whether to keep it.
    var work: String?
    var keep = false
    /// The StoreKit catalogue the mock store sells from.
    var catalogue = "Catalogue/Credit.storekit"
    /// `--load-only DIR`: the child that measures one cold load.
    var loadOnly: String?
    /// `--verify-only DIR`: one verify of the ledger in DIR, for profiling.
    var verifyOnly: String?
    /// `--pipeline-only DIR`: the child that measures a cold load's floor before any parse (``PipelineFloor``).
    var pipelineOnly: String?
    /// Accounts whose summaries the P&L rows total (issue 16: 10,000).
    var accounts = 10_000
    /// The DuckDB P&L script the P&L rows run beside `credit pnl`.
    var analytics = "analytics/pnl.sh"
    /// Which rows to run (all by default).
    var only: Set<String> = []

    /// This program, and the `credit` and `mockstore` binaries beside it.
    var executable = ""
    var credit: String?
    var mockstore: String?
    var summaryVerifier: String?
    /// The Python interpreter `python3` runs (resolved once, so a shim's own start is not counted).
    var python: String?

    var appendCount: Int { quick ? 200 : 1_000 }
    var batchEntries: Int { quick ? 20_000 : 200_000 }
    var counterEntries: Int { min(100_000, entries) }
    /// Repetitions of each in-process or child measurement (medians are reported).
    var runs: Int { quick ? 1 : 3 }
    /// Process starts timed for the counter and its baseline.
    var processRuns: Int { quick ? 5 : 21 }
    /// Seconds of load for each HTTP measurement.
    var httpSeconds: Int { quick ? 2 : 5 }

    /// The rows `--only` may name.
    static let rows = [
        "append", "append-head", "batch", "load", "sums", "merge", "verify", "counter", "catalogue", "purchases",
        "store-start", "store-load", "store-customers", "store-renewals", "store-notifications", "pnl", "sync",
    ]

    static let spec = CommandSpec(
        "credit-bench",
        discussion: """
            Makes its own data (signed ledgers: charges of the app's feature keys with subjects, refunds, top-ups),
            measures, and prints one table: each figure with its target, the baseline measured in the same run and
            their ratio. Progress goes to standard error, the table to standard output. Nothing is asserted.
            """,
        options: [
            .integer(
                .entries, "N", in: 100...Int64.max, noun: "a number of entries", allowsGrouping: true,
                help: "entries in the big ledger (default 1,000,000)"),
            .flag(.quick, help: "CI smoke size: 20,000 entries, fewer repetitions, 2-second HTTP runs"),
            .string(
                .work, "DIR",
                help: "where the data goes (default: a new directory under $TMPDIR or /tmp, removed after)"),
            .flag(.keep, help: "keep the data"),
            .string(.catalogue, "FILE", help: "the mock store's catalogue (default Catalogue/Credit.storekit)"),
            .integer(
                .accounts, "N", in: 1...Int64(Int32.max), noun: "a number of accounts", allowsGrouping: true,
                help: "accounts whose signed summaries the P&L rows total (default 10,000; 1,000 with --quick)"),
            .string(
                .only, "ROWS",
                help: "comma-separated, of: append, append-head, batch, load (cold load and memory), sums, merge, "
                    + "verify, counter, catalogue, purchases, store-start, store-load, store-customers, "
                    + "store-renewals, store-notifications, pnl, sync (default all)"),
            .string(.loadOnly, "DIR", help: "(internal) open the ledger in DIR, print what the load took, exit"),
            .string(
                .verifyOnly, "DIR",
                help: "(internal) verify the one device file of the ledger in DIR, print what it took, exit"),
            .string(
                .pipelineOnly, "DIR",
                help: "(internal) read and MAC every line of the ledger in DIR and touch an entry's memory for each, "
                    + "parsing nothing, print what it took, exit"),
        ],
        epilogue:
            "Exit status: 0 every row ran; 1 the bench could not run; 2 a row failed; 64 the command line is wrong.")

    static let usage = spec.helpText

    /// Reads the command line; nil when it asks for `--help`.
    static func parse(_ arguments: [String]) throws(UsageError) -> BenchOptions? {
        guard case .run(let args) = try spec.parse(arguments) else { return nil }
        var options = BenchOptions()
        if let entries = args.integer(.entries) { options.entries = Int(entries) }
        options.quick = args.flag(.quick)
        options.work = args.string(.work)
        options.keep = args.flag(.keep)
        options.catalogue = args.string(.catalogue) ?? options.catalogue
        options.loadOnly = args.string(.loadOnly)
        options.verifyOnly = args.string(.verifyOnly)
        options.pipelineOnly = args.string(.pipelineOnly)
        if let only = args.string(.only) {
            options.only = Set(only.split(separator: ",").map(String.init))
            if let unknown = options.only.sorted().first(where: { !rows.contains($0) }) {
                throw .invalidValue(
                    "--only", unknown, isNot: "a row: " + rows.joined(separator: ", "), command: args.path)
            }
        }
        if options.quick && args.integer(.entries) == nil { options.entries = 20_000 }
        if let accounts = args.integer(.accounts) {
            options.accounts = Int(accounts)
        } else if options.quick {
            options.accounts = 1_000
        }
        options.executable = BenchOptions.ownPath()
        let directory = String(
            options.executable[..<(options.executable.lastIndex(of: "/") ?? options.executable.startIndex)])
        options.credit = access(directory + "/credit", X_OK) == 0 ? directory + "/credit" : nil
        options.mockstore = access(directory + "/mockstore", X_OK) == 0 ? directory + "/mockstore" : nil
        let verifier = directory + "/credit-summary-verify"
        options.summaryVerifier = access(verifier, X_OK) == 0 ? verifier : nil
        return options
    }

    func wants(_ group: String) -> Bool { only.isEmpty || only.contains(group) }

    private static func ownPath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 { return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return CommandLine.arguments[0]
    }
}
