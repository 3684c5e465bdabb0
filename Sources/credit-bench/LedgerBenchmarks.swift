import COpenSSL
import CreditLedger
import Platform
import Signing
import VoiceDebriefCredit

/// The ledger rows of the table, each measured against its baseline in the same run (verify and the counter are in
/// LedgerBenchmarks+Verify.swift).
struct LedgerBenchmarks {
    let options: BenchOptions
    let work: String

    /// A charge like the app's, with a fresh id.
    static func charge(_ number: Int) -> EntryDraft {
        EntryDraft(
            id: "bench-\(number)-\(UInt64.random(in: 0...UInt64.max))", kind: .charge, feature: "readNote",
            subject: "note-\(number)", quantity: 1, amount: MicroCredits(-10_000))
    }

    // MARK: durable append

    /// p50 and p99 of one durable append (`Ledger.append`: lock, re-read, encode, MAC, chain, one write, one
    /// fdatasync), against a raw `write` + `fdatasync` of the same bytes to another file on the same disk, the
    /// two interleaved so both see the same disk and the same load. `signedHead`: the ledger as the app opens it
    /// (`Ledger.openSigned`), which after the append also writes the signed head (its own fsyncs) and the
    /// checkpoint cache.
    func durableAppend(into table: inout ResultTable, signedHead: Bool) throws {
        let directory = work + (signedHead ? "/append-head" : "/append")
        let ledger: Ledger
        if signedHead {
            ledger = try Ledger.openSigned(directory: directory)
        } else {
            let keys = try LedgerKeys.loadOrCreate(in: directory)
            ledger = try Ledger(directory: directory, authenticator: try keys.makeAuthenticator())
        }
        let ledgerPath = ledger.path(forDevice: ledger.device)
        let rawPath = directory + "/raw.jsonl"
        let raw = open(rawPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard raw >= 0 else { throw BenchError("cannot create \(rawPath)") }
        defer { close(raw) }
        let reader = open(ledgerPath, O_RDONLY | O_CLOEXEC)
        guard reader >= 0 else { throw BenchError("cannot open \(ledgerPath)") }
        defer { close(reader) }
        let count = options.appendCount
        var ledgerTimes: [Double] = []
        var rawTimes: [Double] = []
        var ledgerCPU = 0.0
        var rawCPU = 0.0
        var size = fileSize(reader)
        for index in 0..<(count + 20) {
            let draft = LedgerBenchmarks.charge(index)
            // Alternate which goes first, so neither always follows the other's flush.
            var ledgerTime = 0.0
            var rawTime = 0.0
            func appendToLedger() throws {
                let cpu0 = Measure.cpu()
                let start = Measure.now()
                try ledger.append(draft)
                ledgerTime = Measure.now() - start
                ledgerCPU += Measure.cpu() - cpu0
            }
            func appendRaw(_ bytes: [UInt8]) {
                let cpu0 = Measure.cpu()
                let start = Measure.now()
                bytes.withUnsafeBytes { _ = write(raw, $0.baseAddress!, $0.count) }
                _ = Platform.syncData(raw)
                rawTime = Measure.now() - start
                rawCPU += Measure.cpu() - cpu0
            }
            if index % 2 == 0 {
                try appendToLedger()
                let newSize = fileSize(reader)
                appendRaw(readBytes(reader, from: size, to: newSize))
                size = newSize
            } else {
                // The raw write goes first with the bytes of the line the ledger wrote last time.
                let previous = readLastLine(reader, size: size)
                appendRaw(previous)
                try appendToLedger()
                size = fileSize(reader)
            }
            if index >= 20 {  // the first few warm the caches
                ledgerTimes.append(ledgerTime)
                rawTimes.append(rawTime)
            } else {
                ledgerCPU = 0
                rawCPU = 0
            }
        }
        table.add(
            LedgerBenchmarks.durableAppendRow(
                signedHead: signedHead, ledgerTimes: ledgerTimes, rawTimes: rawTimes,
                cpu: (ledgerCPU / Double(count), rawCPU / Double(count))))
    }

    /// The row of ``durableAppend(into:signedHead:)``: the ledger's p50 and p99 against the raw write's, and the CPU
    /// an append took on each side.
    static func durableAppendRow(signedHead: Bool, ledgerTimes: [Double], rawTimes: [Double], cpu: (Double, Double))
        -> ResultRow
    {
        let p50 = Measure.percentile(ledgerTimes, 50)
        let p99 = Measure.percentile(ledgerTimes, 99)
        let raw50 = Measure.percentile(rawTimes, 50)
        let raw99 = Measure.percentile(rawTimes, 99)
        let met = p50 <= 1.3 * raw50 && p99 <= 1.3 * raw99
        let (cpu, baselineCPU) = cpu
        return ResultRow(
            what: signedHead
                ? "durable append + signed head + checkpoint (openSigned), p50 / p99 [extra row]"
                : "durable append of one entry (Ledger.append), p50 / p99",
            figure: "\(Format.duration(p50)) / \(Format.duration(p99)) (CPU \(Format.duration(cpu)) an append)",
            target: "within 1.3x of baseline",
            baseline:
                "write+fdatasync \(Format.duration(raw50)) / \(Format.duration(raw99)) (CPU \(Format.duration(baselineCPU)))",
            ratio: "\(Format.ratio(p50, raw50)) / \(Format.ratio(p99, raw99))",
            met: signedHead ? (met ? "yes" : "no (extra fsyncs)") : Format.yes(met))
    }

    // MARK: batched appends

    /// Entries per second through `Ledger.appendBatch` (one write + one fdatasync per batch), batches of 1,000
    /// charges, on a signed ledger opened as the app opens it (its head and checkpoint kept after each batch).
    func batchedAppends(into table: inout ResultTable) throws {
        let ledger = try Ledger.openSigned(directory: work + "/batch")
        let total = options.batchEntries
        let batchSize = 1_000
        var batches: [[EntryDraft]] = []
        var made = 0
        while made < total {
            let size = min(batchSize, total - made)
            batches.append((made..<(made + size)).map(LedgerBenchmarks.charge))
            made += size
        }
        let timed = try Measure.time {
            for batch in batches { try ledger.appendBatch(batch) }
        }
        let rate = Double(total) / timed.wall
        table.add(
            ResultRow(
                what: "batched appends (1,000 per write + fdatasync)",
                figure:
                    "\(Format.number(rate)) entries/s (\(Format.number(Double(total))) entries, CPU \(Format.duration(timed.cpu / Double(total))) each)",
                target: ">= 50,000 entries/s", met: Format.yes(rate >= 50_000)))
    }

    // MARK: cold load and memory

    /// What one `credit-bench --load-only` child measured.
    struct LoadRun {
        var wall: Double
        var cpu: Double
        var peakResident: Int
        var entries: Int
        var balance: Int64
    }

    /// The child's side: opens the ledger in `directory` as the app does (a full load: every line read, parsed,
    /// indexed and summed), and prints what it took.
    static func loadOnly(_ directory: String) throws {
        let start = Measure.now()
        let cpu0 = Measure.cpu()
        let ledger = try Ledger.openSigned(directory: directory)
        let balance = ledger.balance
        let wall = Measure.now() - start
        let cpu = Measure.cpu() - cpu0
        print(
            "entries=\(ledger.entries.count) balance=\(balance.rawValue) wall=\(wall) cpu=\(cpu) maxrss=\(Measure.peakResidentBytes())"
        )
    }

    /// Cold load and peak memory, each in a fresh process, against orjson reading the same file.
    func coldLoad(
        directory: String, file: (path: String, bytes: Int), expectedBalance: Int64, into table: inout ResultTable
    ) throws {
        var runs: [LoadRun] = []
        // One open first, untimed, as every open but a ledger's first follows another: it leaves the checkpoint
        // and its line marks, where the timed opens cut the file.
        for attempt in 0...options.runs {
            let child = try Measure.run(options.executable, ["--load-only", directory])
            guard child.status == 0, let run = LedgerBenchmarks.parseLoad(child.output) else {
                throw BenchError("credit-bench --load-only failed: \(child.output)")
            }
            guard run.balance == expectedBalance, run.entries == options.entries else {
                throw BenchError(
                    "the load found \(run.entries) entries and balance \(run.balance), expected \(options.entries) and \(expectedBalance)"
                )
            }
            if attempt > 0 { runs.append(run) }
        }
        let wall = Measure.median(runs.map(\.wall))
        let cpu = Measure.median(runs.map(\.cpu))
        let peak = Int(Measure.median(runs.map { Double($0.peakResident) }))
        let size = Format.number(Double(options.entries))
        let keys = try LedgerKeys.load(from: directory)
        let floor = try hmacBaseline(path: file.path, key: keys.macKey, threads: 2)
        let target = 0.5 * Double(options.entries) / 1_000_000
        table.add(
            ResultRow(
                what:
                    "cold load of \(size) entries to a balance (fresh process, openSigned, every MAC checked, after an earlier open)",
                figure: "\(Format.duration(wall)) (CPU \(Format.duration(cpu)))",
                target: "<= 0.5 s per 1M, within 2x of baseline",
                baseline: "OpenSSL HMAC-SHA256 of every line on 2 threads \(Format.duration(floor))",
                ratio: Format.ratio(wall, floor), met: Format.yes(wall <= target && wall <= 2 * floor)))
        let pipeline = try pipelineFloor(directory: directory)
        table.add(
            ResultRow(
                what: "cold load of \(size) entries beside its floor before any parse [extra row]",
                figure: "\(Format.duration(wall)) (CPU \(Format.duration(cpu)))", target: "- (what the parse adds)",
                baseline:
                    "file read in chunks, every line's MAC, an entry's memory touched, 2 threads, fresh process \(Format.duration(pipeline.wall)) (CPU \(Format.duration(pipeline.cpu)); \(Format.ratio(pipeline.wall, floor)) of the HMAC floor)",
                ratio: Format.ratio(wall, pipeline.wall), met: "-"))
        if let python = options.python,
            let orjson = try orjsonBaseline(python: python, path: file.path, expected: expectedBalance)
        {
            table.add(
                ResultRow(
                    what: "cold load of \(size) entries beside orjson [extra row]",
                    figure: "\(Format.duration(wall)) (CPU \(Format.duration(cpu)))", target: "faster than baseline",
                    baseline:
                        "orjson line by line \(Format.duration(orjson.wall)) (CPU \(Format.duration(orjson.cpu)))",
                    ratio: Format.ratio(wall, orjson.wall), met: Format.yes(wall < orjson.wall)))
        } else {
            table.add(
                .skipped(
                    "cold load of \(size) entries beside orjson [extra row]", target: "faster than baseline",
                    reason: "python3 with orjson not found"))
        }
        table.add(
            ResultRow(
                what: "memory: peak resident for the \(size)-entry load",
                figure: "\(Format.megabytes(peak)) (VmHWM of the loading process)",
                target: "<= 1x the file's size", baseline: "file \(Format.megabytes(file.bytes))",
                ratio: Format.ratio(Double(peak), Double(file.bytes)),
                met: Format.yes(Double(peak) <= Double(file.bytes))))
    }

    /// ``PipelineFloor`` over the ledger in `directory`, each run in a fresh process: the medians.
    func pipelineFloor(directory: String) throws -> (wall: Double, cpu: Double) {
        var walls: [Double] = []
        var cpus: [Double] = []
        for _ in 0..<options.runs {
            let child = try Measure.run(options.executable, ["--pipeline-only", directory])
            let values = LedgerBenchmarks.fields(child.output)
            guard child.status == 0, let wall = values["wall"].flatMap(Double.init),
                let cpu = values["cpu"].flatMap(Double.init), values["lines"].flatMap(Int.init) == options.entries
            else { throw BenchError("credit-bench --pipeline-only failed: \(child.output)") }
            walls.append(wall)
            cpus.append(cpu)
        }
        return (Measure.median(walls), Measure.median(cpus))
    }

    /// The `name=value` fields of a child's output.
    static func fields(_ output: String) -> [String: String] {
        var values: [String: String] = [:]
        for field in output.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = field.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        return values
    }

    static func parseLoad(_ output: String) -> LoadRun? {
        let values = fields(output)
        guard let wall = values["wall"].flatMap(Double.init), let cpu = values["cpu"].flatMap(Double.init),
            let peak = values["maxrss"].flatMap(Int.init), let entries = values["entries"].flatMap(Int.init),
            let balance = values["balance"].flatMap(Int64.init)
        else { return nil }
        return LoadRun(wall: wall, cpu: cpu, peakResident: peak, entries: entries, balance: balance)
    }

    /// Python's orjson reading the file line by line and summing the amounts, timed by Python itself (the
    /// interpreter's start is not counted); the median of the runs. Nil when orjson is not installed.
    func orjsonBaseline(python: String, path: String, expected: Int64) throws -> (wall: Double, cpu: Double)? {
        let script = """
            import sys, time
            try:
                import orjson
            except ImportError:
                print("missing"); sys.exit(0)
            start, cpu = time.perf_counter(), time.process_time()
            total = 0
            with open(sys.argv[1], "rb") as f:
                for line in f:
                    total += orjson.loads(line)["amount"]
            print(total, time.perf_counter() - start, time.process_time() - cpu)
            """
        var walls: [Double] = []
        var cpus: [Double] = []
        for _ in 0..<options.runs {
            let run = try Measure.run(python, ["-c", script, path])
            let fields = run.output.split(whereSeparator: \.isWhitespace)
            if fields.first == "missing" { return nil }
            guard run.status == 0, fields.count == 3, let wall = Double(fields[1]), let cpu = Double(fields[2]) else {
                throw BenchError("the orjson baseline failed: \(run.output)")
            }
            // orjson sums every line; the ledger counts each id once. In this data every id is distinct.
            if Int64(fields[0]) != expected { log("  note: orjson summed \(fields[0]), the ledger \(expected)") }
            walls.append(wall)
            cpus.append(cpu)
        }
        return (Measure.median(walls), Measure.median(cpus))
    }

    // MARK: in memory

    /// The credit screen's sums over the loaded ledger: the balance recomputed from the entries (opening +
    /// top-ups - used, by `LedgerTotals(of:)`) and takings by feature (`FeatureTakings.list(in:)`), over every distinct entry.
    func balanceAndTakings(directory: String, into table: inout ResultTable) throws {
        let ledger = try Ledger(directory: directory, create: false)
        var times: [Double] = []
        var cpus: [Double] = []
        for _ in 0..<max(5, options.runs) {
            let timed = try Measure.time { () throws -> Int in
                let totals = try LedgerTotals(of: ledger)
                let takings = try FeatureTakings.list(in: ledger)
                let recomputed = try totals.opening.adding(totals.toppedUp).subtracting(totals.used)
                guard recomputed == ledger.balance else {
                    throw BenchError("the recomputed balance \(recomputed) is not the ledger's \(ledger.balance)")
                }
                return takings.count
            }
            times.append(timed.wall)
            cpus.append(timed.cpu)
        }
        let time = Measure.median(times)
        let scale = Double(options.entries) / 1_000_000
        table.add(
            ResultRow(
                what: "balance and takings over \(Format.number(Double(ledger.entries.count))) entries in memory",
                figure: "\(Format.duration(time)) (CPU \(Format.duration(Measure.median(cpus))))",
                target: "<= 50 ms per 1M",
                met: Format.yes(time <= 0.05 * max(scale, 0.02))))
        let screen = try Measure.time { try CreditScreen(ledger: ledger, prices: VoiceDebriefPrices()) }
        table.add(
            ResultRow(
                what: "the whole credit-screen model (7/30-day takings, every entry sorted) [extra row]",
                figure: Format.duration(screen.wall), target: "report", met: "-"))
    }

    // MARK: merge

    /// `LedgerUnion.union` (what `Ledger.merge` runs) of two ledgers of half the entries each, already in memory:
    /// device A's own entries plus the first tenth of device B's (synced before), and all of B's. Checks (forks,
    /// gaps, conflicts), deduplication by id, the balance, and the display order of the result.
    func merge(into table: inout ResultTable) throws {
        let half = options.entries / 2
        let synced = half / 10
        let key = [UInt8](repeating: 7, count: 32)
        let b = try LedgerData.entries(
            count: half, device: "b1d2c3e4-0000-4000-8000-00000000000b", macKey: key, seed: 2)
        let a =
            try LedgerData.entries(
                count: half - synced, device: "a1d2c3e4-0000-4000-8000-00000000000a", macKey: key, seed: 1)
            + b[0..<synced]
        var times: [Double] = []
        var cpus: [Double] = []
        var distinct = 0
        var report: MergeReport?
        for _ in 0..<options.runs {
            let timed = Measure.time { () -> Int in
                let union = LedgerUnion.union(a, b)
                report = union.report
                return union.displayOrder.count
            }
            distinct = timed.value
            times.append(timed.wall)
            cpus.append(timed.cpu)
        }
        guard let report, report.problems.isEmpty, report.alreadyPresent == synced, report.addedCount == half - synced
        else {
            throw BenchError("the merge did not go as expected: \(String(describing: report))")
        }
        let time = Measure.median(times)
        table.add(
            ResultRow(
                what: "merge of two \(Format.number(Double(half)))-entry ledgers (parse excluded)",
                figure:
                    "\(Format.duration(time)) (CPU \(Format.duration(Measure.median(cpus))); \(Format.number(Double(distinct))) distinct ids, put in display order)",
                target: "<= 0.5 s per 2 x 500k",
                met: Format.yes(time <= 0.5 * max(Double(options.entries) / 1_000_000, 0.02))))
    }
}
