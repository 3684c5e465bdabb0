import CreditLedger
import OptionParsing
import Platform

// credit-bench: makes its own data, measures each row of issue 7 against its baseline in the same run, and prints
// one table. See BENCHMARKS.md and `credit-bench --help`.

nonisolated(unsafe) var failures = 0
let parsed: BenchOptions?
do {
    parsed = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    log("credit-bench: \(error.message)\nRun `credit-bench --help` for how to use it.")
    exit(64)
}
guard var options = parsed else {
    print(BenchOptions.usage)
    exit(0)
}
do {
    if let directory = options.loadOnly {
        try LedgerBenchmarks.loadOnly(directory)
        exit(0)
    }
    if let directory = options.verifyOnly {
        try LedgerBenchmarks.verifyOnly(directory)
        exit(0)
    }
    if let directory = options.pipelineOnly {
        try LedgerBenchmarks.pipelineOnly(directory)
        exit(0)
    }
    options.python = resolvePython()

    let work: String
    if let given = options.work {
        try LedgerData.makeDirectory(given)
        work = given
    } else {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/credit-bench-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError("cannot make a directory under \(base)") }
        work = String(cString: made)
    }
    defer { if !options.keep && options.work == nil { LedgerData.remove(work) } }
    log(
        "credit-bench: \(Format.number(Double(options.entries))) entries\(options.quick ? " (quick)" : ""), data in \(work)"
    )

    var table = ResultTable()
    let loadAtStart = loadAverage()
    let ledger = LedgerBenchmarks(options: options, work: work)
    let store = StoreBenchmarks(options: options, work: work)

    if options.wants("append") {
        log("durable appends (\(options.appendCount), interleaved with the raw baseline)")
        attempt("durable append", &table) { try ledger.durableAppend(into: &$0, signedHead: false) }
    }
    if options.wants("append-head") {
        log("durable appends with the signed head (\(options.appendCount), interleaved with the raw baseline)")
        attempt("durable append + signed head", &table) { try ledger.durableAppend(into: &$0, signedHead: true) }
    }
    if options.wants("batch") {
        log("batched appends")
        attempt("batched appends", &table) { try ledger.batchedAppends(into: &$0) }
    }
    if options.wants("load") || options.wants("sums") || options.wants("verify") {
        log("making a signed ledger of \(Format.number(Double(options.entries))) entries")
        let device = "d3c0ffee-0000-4000-8000-000000000001"
        let big = work + "/ledger-\(options.entries)"
        let made = try Measure.time {
            try LedgerData.makeLedger(count: options.entries, device: device, in: big, seed: 1)
        }
        let file = made.value
        log("  \(Format.megabytes(file.bytes)) in \(Format.duration(made.wall))")
        // The balance the generator ended on, from the head it signed.
        guard let head = try SignedHead.read(in: big, device: device) else { throw BenchError("no head was written") }
        if options.wants("load") {
            log("cold loads (fresh processes), the two-thread HMAC floor and orjson")
            attempt("cold load", &table) {
                try ledger.coldLoad(directory: big, file: file, expectedBalance: head.balance, into: &$0)
            }
        }
        if options.wants("sums") {
            log("balance and takings in memory")
            attempt("balance and takings", &table) { try ledger.balanceAndTakings(directory: big, into: &$0) }
        }
        if options.wants("verify") {
            log("verify")
            attempt("verify", &table) { try ledger.verify(directory: big, file: file, into: &$0) }
        }
    }
    if options.wants("merge") {
        log("merge")
        attempt("merge", &table) { try ledger.merge(into: &$0) }
    }
    if options.wants("sync") {
        log("sync through a folder, beside merge")
        attempt("sync", &table) { try ledger.syncFromFolder(into: &$0) }
    }
    if options.wants("counter") {
        log("counter")
        attempt("counter", &table) { try ledger.counter(count: options.counterEntries, into: &$0) }
    }
    if options.wants("catalogue") || options.wants("purchases") || options.wants("store-start")
        || options.wants("store-load") || options.wants("store-customers") || options.wants("store-renewals")
        || options.wants("store-notifications")
    {
        if options.mockstore == nil {
            table.add(
                .skipped("mock store rows", target: "-", reason: "the mockstore binary is not beside credit-bench"))
        } else {
            if options.wants("catalogue") {
                log("mock store: catalogue")
                attempt("mock store: catalogue", &table) { try store.catalogue(into: &$0) }
            }
            if options.wants("purchases") {
                log("mock store: purchases")
                var raw: Double?
                attempt("mock store: purchases", &table) { raw = try store.purchases(into: &$0) }
                log("MockStoreKit: purchases")
                attempt("MockStoreKit: purchases", &table) { try store.storeKitPurchases(baseline: raw, into: &$0) }
            }
            if options.wants("store-start") {
                log("mock store: start to listening")
                attempt("mock store: start", &table) { try store.startToListening(into: &$0) }
            }
            if options.wants("store-load") {
                log("mock store: a purchase under 1,100 open connections")
                attempt("mock store: load", &table) { try store.purchaseUnderLoad(into: &$0) }
            }
            if options.wants("store-customers") {
                log("mock store: Get All Subscription Statuses, many customers beside one")
                attempt("mock store: many customers", &table) { try store.statusesWithManyCustomers(into: &$0) }
            }
            if options.wants("store-renewals") {
                log("mock store: a purchase while subscriptions renew, beside the same store idle")
                attempt("mock store: a purchase while renewing", &table) { try store.purchaseWhileRenewing(into: &$0) }
            }
            if options.wants("store-notifications") {
                log("mock store: notifications delivered to one receiver, beside one client's POSTs")
                attempt("mock store: notifications delivered", &table) { try store.notificationDelivery(into: &$0) }
            }
        }
    }
    if options.wants("pnl") {
        log(
            "P&L of \(Format.number(Double(options.accounts))) accounts: credit pnl --summaries beside DuckDB and Spark"
        )
        attempt("P&L of all accounts", &table) { try PnLBenchmarks(options: options, work: work).rows(into: &$0) }
    }
    table.notes.append(
        "Load average (1 min) at the start and end of this run: \(loadAtStart) / \(loadAverage()), on \(processorCount()) processors; CPU times are given beside wall times for that reason."
    )
    if options.quick {
        table.notes.append(
            "Quick run (CI smoke): sizes are below the issue's; targets per entry are scaled to the size.")
    }
    #if DEBUG
        table.notes.append("Debug build: these figures show that every row runs, not how fast anything is.")
    #endif
    print(table.render(), terminator: "")
    if failures > 0 { exit(2) }
} catch {
    log("credit-bench: \(error)")
    exit(1)
}

/// Runs one row (or pair of rows); a failure becomes a row saying so, and the bench goes on (exiting 2 at the end).
func attempt(_ what: String, _ table: inout ResultTable, _ body: (inout ResultTable) throws -> Void) {
    do {
        try body(&table)
    } catch {
        failures += 1
        table.add(ResultRow(what: what, figure: "failed: \(error)", target: "-", met: "-"))
    }
}

/// The interpreter `python3` on PATH runs (a pyenv shim is a shell script: its own start would be timed).
func resolvePython() -> String? {
    guard let shim = Measure.which("python3"),
        let run = try? Measure.run(shim, ["-c", "import sys; print(sys.executable)"]), run.status == 0
    else { return nil }
    let path = Format.trimmed(run.output)
    return path.isEmpty ? shim : path
}

/// The 1-minute load average, from /proc/loadavg (Linux), or "?".
func loadAverage() -> String {
    guard let text = try? LedgerData.readText("/proc/loadavg"), let first = text.split(separator: " ").first else {
        return "?"
    }
    return String(first)
}

func processorCount() -> Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
