import COpenSSL
import CreditLedger
import DurableFiles
import Foundation
import Platform
import Signing
import VoiceDebriefCredit

extension LedgerBenchmarks {
    /// Verifies the device file in `directory` as the verify row does, printing each run's figures (for profiling
    /// it alone).
    static func verifyOnly(_ directory: String) throws {
        let verify = try OneFileVerify(directory: directory, path: try deviceFile(in: directory))
        // Three times in one process, as the verify row does: the later runs find the allocator's memory made.
        for run in 1...3 {
            let start = Measure.now()
            let cpu0 = Measure.cpu()
            let made = try verify.run()
            let wall = Measure.now() - start
            let cpu = Measure.cpu() - cpu0
            print(
                "run=\(run) entries=\(made.report.entriesChecked) clean=\(made.report.isClean) wall=\(wall) cpu=\(cpu) read=\(made.readTime)"
            )
        }
    }

    /// The path of this device's file in the ledger in `directory`.
    static func deviceFile(in directory: String) throws -> String {
        let device = String(decoding: try Files.readAll(directory + "/device", limit: 256), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return directory + "/ledger/" + device + ".jsonl"
    }

    /// The child's side of the pipeline floor: ``PipelineFloor`` over the device file in `directory`, once.
    static func pipelineOnly(_ directory: String) throws {
        let keys = try LedgerKeys.load(from: directory)
        let made = try PipelineFloor(path: try deviceFile(in: directory), key: keys.macKey).measure()
        print("lines=\(made.lines) wall=\(made.wall) cpu=\(made.cpu)")
    }

    /// What `credit verify` does to the file, read and parse included, after the open that `credit verify` makes
    /// first (it leaves the checkpoint's line marks, untimed here): the marks read, `LedgerVerifier.read` (the file
    /// cut at them and read in parts on every core, each line parsed and its MAC checked over its exact bytes) and
    /// `LedgerVerifier.verify(read:)` (the chain, sequences, ids, the balance, the signed head), against an OpenSSL
    /// HMAC-SHA256 loop over the same bytes on one thread.
    func verify(directory: String, file: (path: String, bytes: Int), into table: inout ResultTable) throws {
        _ = try Ledger.openSigned(directory: directory)
        let verify = try OneFileVerify(directory: directory, path: file.path)
        var times: [Double] = []
        var cpus: [Double] = []
        var reads: [Double] = []
        for _ in 0..<options.runs {
            let timed = try Measure.time { try verify.run() }
            cpus.append(timed.cpu)
            guard timed.value.report.isClean, timed.value.report.entriesChecked == options.entries else {
                throw BenchError("verify found problems: \(timed.value.report.problems.prefix(3))")
            }
            times.append(timed.wall)
            reads.append(timed.value.readTime)
        }
        let baseline = try hmacBaseline(path: file.path, key: verify.keys.macKey)
        let time = Measure.median(times)
        table.add(
            ResultRow(
                what:
                    "verify \(Format.number(Double(options.entries))) signed entries, read and parse included (of which read, parse and MACs \(Format.duration(Measure.median(reads))))",
                figure: "\(Format.duration(time)) (CPU \(Format.duration(Measure.median(cpus))), on every core)",
                target: "within 1.5x of baseline",
                baseline: "OpenSSL HMAC-SHA256 loop \(Format.duration(baseline)) (1 thread)",
                ratio: Format.ratio(time, baseline),
                met: Format.yes(time <= 1.5 * baseline)))
    }

    /// HMAC-SHA256 with one reused `EVP_MAC_CTX` a thread over the MAC-covered bytes of every line, nothing else,
    /// the lines split evenly between `threads` threads: the floor for a verify (one thread) and for a cold load
    /// (every core). The median of the runs.
    func hmacBaseline(path: String, key: [UInt8], threads: Int = 1) throws -> Double {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw BenchError("cannot open \(path)") }
        defer { close(fd) }
        let bytes = readBytes(fd, from: 0, to: fileSize(fd))
        return try HMACFloor(bytes: bytes).measure(key: key, threads: threads, runs: options.runs)
    }

    // MARK: counter

    /// `credit --data-dir D balance`, process start to printed, on a ledger of `count` entries: the median of the
    /// runs after the first (which finds no checkpoint and loads everything, then writes one), against
    /// `python3 -c 'print(1)'` with the same interpreter the shell would run.
    func counter(count: Int, into table: inout ResultTable) throws {
        guard let credit = options.credit else {
            table.add(
                .skipped(
                    "counter on a \(Format.number(Double(count)))-entry ledger", target: "within 2x of baseline",
                    reason: "the credit binary is not beside credit-bench"))
            return
        }
        let directory = work + "/counter"
        try LedgerData.makeLedger(count: count, device: "c0c0c0c0-0000-4000-8000-00000000000c", in: directory, seed: 3)
        let environment = ["NO_COLOR=1", "PATH=/usr/bin:/bin", "HOME=\(directory)"]
        let first = try Measure.run(credit, ["--data-dir", directory, "balance"], environment: environment)
        guard first.status == 0 else { throw BenchError("credit balance failed: \(first.output)") }
        var times: [Double] = []
        for _ in 0..<options.processRuns {
            let run = try Measure.run(credit, ["--data-dir", directory, "balance"], environment: environment)
            guard run.status == 0, run.output == first.output else {
                throw BenchError("credit balance said \(run.output)")
            }
            times.append(run.wall)
        }
        let time = Measure.median(times)
        let size = Format.number(Double(count))
        guard let python = options.python else {
            table.add(
                ResultRow(
                    what: "counter on a \(size)-entry ledger", figure: Format.duration(time),
                    target: "within 2x of baseline", baseline: "skipped: no python3", met: "-"))
            try counterAfterAppends(count: count, credit: credit, baseline: nil, into: &table)
            return
        }
        var baselines: [Double] = []
        for _ in 0..<options.processRuns {
            baselines.append(try Measure.run(python, ["-c", "print(1)"], environment: environment).wall)
        }
        let baseline = Measure.median(baselines)
        table.add(
            ResultRow(
                what:
                    "counter on a \(size)-entry ledger, `credit balance` start to printed (median of \(options.processRuns))",
                figure: "\(Format.duration(time)) (\(Format.trimmed(first.output)))",
                target: "within 2x of baseline",
                baseline: "python3 -c 'print(1)' \(Format.duration(baseline))", ratio: Format.ratio(time, baseline),
                met: Format.yes(time <= 2 * baseline)))
        table.add(
            ResultRow(
                what: "counter, first run after a change (no checkpoint: full load, writes one) [extra row]",
                figure: Format.duration(first.wall), target: "report",
                baseline: "python3 -c 'print(1)' \(Format.duration(baseline))",
                ratio: Format.ratio(first.wall, baseline), met: "-"))
        try counterAfterAppends(count: count, credit: credit, baseline: baseline, into: &table)
    }

    // MARK: helpers

    func fileSize(_ fd: Int32) -> Int64 {
        var info = stat()
        fstat(fd, &info)
        return Int64(info.st_size)
    }

    func readBytes(_ fd: Int32, from start: Int64, to end: Int64) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Int(end - start))
        var done = 0
        bytes.withUnsafeMutableBytes { raw in
            while done < raw.count {
                let count = pread(fd, raw.baseAddress! + done, raw.count - done, off_t(start) + off_t(done))
                if count <= 0 { break }
                done += count
            }
        }
        return bytes
    }

    /// The last line (with its newline) of the first `size` bytes.
    func readLastLine(_ fd: Int32, size: Int64) -> [UInt8] {
        let start = max(0, size - 4096)
        let tail = readBytes(fd, from: start, to: size)
        guard let newline = tail.dropLast().lastIndex(of: 0x0A) else { return tail }
        return Array(tail[(newline + 1)...])
    }
}
