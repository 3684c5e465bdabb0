import AccountSummaries
import CreditLedger
import Platform
import Signing
import VoiceDebriefCredit

/// The P&L rows of issues 16 and 26: `credit pnl --summaries DIR --json` over the signed summaries of many accounts,
/// every one verified (on both cores), beside DuckDB (`bash analytics/pnl.sh DIR --json`, which verifies with
/// `credit-summary-verify`, then totals in SQL) and Spark in local mode (`... --engine spark`) over the same files in
/// the same run. Each is timed from process start to printed, and their JSON must be the same.
struct PnLBenchmarks {
    let options: BenchOptions
    let work: String

    /// The row's target (issue 26): 100,000 accounts at 10,000 accounts a second or more, beside DuckDB and Spark.
    static let target = "10,000 accounts/s or more (issue 26; 100,000 accounts)"
    static let accountsPerSecond = 10_000.0

    /// Makes the summaries of `count` accounts in `directory`, each from a ledger of its own made as the app writes
    /// them (charges of the app's keys, declines, top-ups), costed with the app's cost list and signed with a key
    /// of its own, exported on one of the last 40 days. Returns the seconds it took.
    static func makeSummaries(count: Int, in directory: String) throws -> Double {
        try LedgerData.makeDirectory(directory)
        let started = Measure.now()
        var random = SplitMix64(seed: 16)
        let day: Int64 = 86_400_000
        let newest: Int64 = 1_795_953_600_000
        for index in 0..<count {
            let start = newest - Int64(random.next() % 40) * day - Int64(random.next() % UInt64(day))
            let entries = try LedgerData.entries(
                count: 8 + Int(random.next() % 40), device: "account-\(index)", macKey: Array(repeating: 7, count: 32),
                seed: random.next(), start: start)
            let summary = try AccountSummary.make(
                entries: entries, exportedAt: entries.last?.time ?? Timestamp(milliseconds: start),
                prices: VoiceDebriefPrices(), costs: VoiceDebriefCosts(), headKey: try P256PrivateKey.generate())
            let name = "account-" + String(String(index + 100_000).suffix(5)) + ".json"
            try LedgerData.writeFile(directory + "/" + name, try summary.encodedJSON())
        }
        return Measure.now() - started
    }

    /// The rows: `credit pnl --summaries` and DuckDB over the summaries of `options.accounts` accounts.
    func rows(into table: inout ResultTable) throws {
        let size = Format.number(Double(options.accounts))
        let what =
            "P&L of \(size) accounts, `credit pnl --summaries DIR --json` start to printed, every summary verified"
        guard let credit = options.credit else {
            table.add(.skipped(what, target: Self.target, reason: "the credit binary is not beside credit-bench"))
            return
        }
        let directory = work + "/summaries-\(options.accounts)"
        let made = try Self.makeSummaries(count: options.accounts, in: directory)
        log("  \(size) signed summaries made in \(Format.duration(made))")
        let environment = Self.environment(verifier: options.summaryVerifier)
        let ours = try timed(credit, ["pnl", "--summaries", directory, "--json"], environment: environment)
        let runs = "median of \(options.runs)"
        let met = Double(options.accounts) / ours.time >= Self.accountsPerSecond ? "yes" : "no"
        if let reason = missingForDuckDB {
            table.add(
                ResultRow(
                    what: what + " (\(runs))", figure: Self.figure(ours.time, accounts: options.accounts),
                    target: Self.target, baseline: "skipped: \(reason)", met: met))
            return
        }
        let duck = try timed("/bin/bash", [options.analytics, directory, "--json"], environment: environment)
        guard Self.sameJSON(ours.output, duck.output) else {
            throw BenchError("credit pnl and DuckDB disagree over the same summaries")
        }
        table.add(
            ResultRow(
                what: what + " (\(runs)); the same JSON as DuckDB's",
                figure: Self.figure(ours.time, accounts: options.accounts),
                target: Self.target,
                baseline:
                    "DuckDB, `bash analytics/pnl.sh DIR --json` (its verifier included) \(Format.duration(duck.time))",
                ratio: Format.ratio(ours.time, duck.time), met: met))
        try sparkRow(into: &table, directory: directory, ours: ours, environment: environment)
        // In process, the totaliser alone: what the command's time is made of, without a process start.
        var inProcess: [Double] = []
        for _ in 0..<options.runs {
            inProcess.append(
                try Measure.time {
                    try SummaryTotaliser.total(
                        directory: directory, tax: StorefrontTax(VoiceDebriefMoney.taxByStorefront))
                }.wall)
        }
        let alone = Measure.median(inProcess)
        table.add(
            ResultRow(
                what: "P&L of \(size) accounts, in process: read, verify and total (SummaryTotaliser) [extra row]",
                figure: Self.figure(alone, accounts: options.accounts), target: "report",
                baseline: "DuckDB \(Format.duration(duck.time))", ratio: Format.ratio(alone, duck.time), met: "-"))
    }

    /// `credit pnl --summaries` beside Spark in local mode over the same summaries: one run (a Spark session's start
    /// is a good part of it), and the same JSON.
    private func sparkRow(
        into table: inout ResultTable, directory: String, ours: (time: Double, output: String),
        environment: [String]
    ) throws {
        let size = Format.number(Double(options.accounts))
        let what = "P&L of \(size) accounts, `credit pnl --summaries DIR --json` beside Spark"
        let target = "report: beside Spark in the same run"
        guard options.python != nil, Self.sparkInstalled else {
            table.add(
                .skipped(
                    what, target: target, reason: "pyspark is not installed (bash analytics/install-engine.sh spark)"))
            return
        }
        let run = try Measure.run(
            "/bin/bash", [options.analytics, directory, "--json", "--engine", "spark"], environment: environment)
        guard run.status == 0 else { throw BenchError("analytics/pnl.sh --engine spark exited \(run.status)") }
        guard Self.sameJSON(ours.output, run.output) else {
            throw BenchError("credit pnl and Spark disagree over the same summaries")
        }
        table.add(
            ResultRow(
                what: what + "; the same JSON as Spark's", figure: Self.figure(ours.time, accounts: options.accounts),
                target: target,
                baseline:
                    "Spark local[2], `bash analytics/pnl.sh DIR --json --engine spark` (its verifier and the JVM's "
                    + "start included; one run) \(Self.figure(run.wall, accounts: options.accounts))",
                ratio: Format.ratio(ours.time, run.wall), met: "-"))
    }

    /// Whether Python can import pyspark (and so `pnl.sh --engine spark` need install nothing).
    private static var sparkInstalled: Bool {
        (try? Measure.run("/usr/bin/env", ["python3", "-c", "import pyspark"], environment: environment(verifier: nil)))?
            .status == 0
    }

    /// Why DuckDB cannot run here, or nil.
    private var missingForDuckDB: String? {
        if options.summaryVerifier == nil { return "credit-summary-verify is not beside credit-bench" }
        if options.python == nil { return "no python3" }
        if access(options.analytics, R_OK) != 0 { return "\(options.analytics) is not here (run from the repository)" }
        return nil
    }

    /// The median wall time of `options.runs` runs of `path arguments` (each must exit 0), and what the last printed.
    private func timed(_ path: String, _ arguments: [String], environment: [String]) throws -> (
        time: Double, output: String
    ) {
        var times: [Double] = []
        var output = ""
        for _ in 0..<options.runs {
            let run = try Measure.run(path, arguments, environment: environment)
            guard run.status == 0 else {
                throw BenchError("\(path) \(arguments.joined(separator: " ")) exited \(run.status)")
            }
            times.append(run.wall)
            output = run.output
        }
        return (Measure.median(times), output)
    }

    /// The environment both run in: this one's PATH and HOME (DuckDB's Python package lives under them), and the
    /// verifier `analytics/pnl.sh` is to use.
    private static func environment(verifier: String?) -> [String] {
        var environment = ["NO_COLOR=1"]
        for name in ["PATH", "HOME", "TMPDIR"] {
            if let value = getenv(name) { environment.append("\(name)=\(String(cString: value))") }
        }
        if let verifier { environment.append("CREDIT_SUMMARY_VERIFY=\(verifier)") }
        return environment
    }

    private static func figure(_ time: Double, accounts: Int) -> String {
        "\(Format.duration(time)) (\(Format.number(Double(accounts) / time)) accounts/s)"
    }

    /// Whether two JSON texts are the same apart from the spaces between their tokens.
    static func sameJSON(_ a: String, _ b: String) -> Bool {
        func tokens(_ text: String) -> [UInt8] {
            var out: [UInt8] = []
            var inString = false
            var escaped = false
            for byte in text.utf8 {
                if inString {
                    out.append(byte)
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte
                        == UInt8(ascii: "\"")
                    {
                        inString = false
                    }
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                    out.append(byte)
                } else if byte != 0x20 && byte != 0x0A && byte != 0x0D && byte != 0x09 {
                    out.append(byte)
                }
            }
            return out
        }
        return tokens(a) == tokens(b)
    }
}
