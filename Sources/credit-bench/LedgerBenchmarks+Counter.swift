import CreditLedger
import Platform
import Signing

/// The counter after a change (issue 38): the first `credit balance` after another process appended another
/// device's entries (with that device's signed head, as a merge or a sync leaves them), the checkpoint taken forward,
/// beside the same counter reading the ledger whole and `python3 -c 'print(1)'`, in the same run.
extension LedgerBenchmarks {
    /// What one of the runs measured: the full read, then the counter after 10 and after 1,000 more appended.
    private struct ForwardRun {
        var whole: Double
        var afterFew: Double
        var afterMany: Double
    }

    /// Each run on a fresh copy of one data directory (no checkpoint): `credit balance` reads it whole (and writes
    /// the checkpoint), then another device's 10 entries are appended and counted, then 1,000 more: the last
    /// counter is on a ledger of `count` entries.
    func counterAfterAppends(
        count: Int, credit: String, baseline: Double?, into table: inout ResultTable
    ) throws {
        let (few, many, base) = (10, 1_000, 100)
        let root = work + "/counter-forward"
        let template = root + "/template"
        try LedgerData.makeDirectory(root)
        let own = "c0c0c0c0-0000-4000-8000-00000000000d"
        try LedgerData.makeLedger(count: count - base - few - many, device: own, in: template, seed: 5)
        let keys = try LedgerKeys.load(from: template)
        // Another device of the account: its first lines there already (its opening counted once), then the rest.
        let other = "b0b0b0b0-0000-4000-8000-00000000000b"
        var factory = try EntryFactory(device: other, macKey: keys.macKey, seed: 17)
        let batches = [base, few, many].map { size in (0..<size).map { _ in factory.next() } }
        try LedgerData.writeFile(template + "/ledger/\(other).jsonl", batches[0].flatMap(\.line))
        var runs: [ForwardRun] = []
        for run in 0..<options.processRuns {
            let directory = root + "/run-\(run)"
            _ = try Measure.run("/bin/cp", ["-a", template, directory], captureOutput: false)
            defer { LedgerData.remove(directory) }
            let environment = ["NO_COLOR=1", "PATH=/usr/bin:/bin", "HOME=\(directory)"]
            let whole = try balance(credit, directory, environment)
            try appendLines(batches[1], of: other, to: directory, key: keys.headKey)
            let afterFew = try balance(credit, directory, environment)
            try appendLines(batches[2], of: other, to: directory, key: keys.headKey)
            let afterMany = try balance(credit, directory, environment)
            if run == 0 {
                // The balance taken forward is the one a full read gives.
                LedgerData.remove(directory + "/checkpoint")
                let check = try Measure.run(credit, ["--data-dir", directory, "balance"], environment: environment)
                guard check.output == afterMany.output, check.status == 0 else {
                    throw BenchError("taken forward: \(afterMany.output); read whole: \(check.output)")
                }
            }
            runs.append(ForwardRun(whole: whole.wall, afterFew: afterFew.wall, afterMany: afterMany.wall))
        }
        addForwardRows(runs, count: count, few: few, many: many, baseline: baseline, into: &table)
    }

    private func balance(_ credit: String, _ directory: String, _ environment: [String]) throws
        -> (wall: Double, output: String)
    {
        let run = try Measure.run(credit, ["--data-dir", directory, "balance"], environment: environment)
        guard run.status == 0, !run.output.contains("note:") else {
            throw BenchError("credit balance said \(run.output)")
        }
        return (run.wall, run.output)
    }

    /// Appends `lines` to `device`'s file in `directory` as a merge does (one write), then its signed head.
    private func appendLines(
        _ lines: [(entry: LedgerEntry, line: [UInt8])], of device: String, to directory: String,
        key: P256PrivateKey
    ) throws {
        let path = directory + "/ledger/\(device).jsonl"
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard fd >= 0 else { throw BenchError("cannot open \(path)") }
        defer { close(fd) }
        try LedgerData.writeAll(fd, lines.flatMap(\.line), path: path)
        guard let last = lines.last?.entry else { return }
        try SignedHead.make(for: last, key: key).write(in: directory)
    }

    private func addForwardRows(
        _ runs: [ForwardRun], count: Int, few: Int, many: Int, baseline: Double?, into table: inout ResultTable
    ) {
        let whole = Measure.median(runs.map(\.whole))
        let afterFew = Measure.median(runs.map(\.afterFew))
        let afterMany = Measure.median(runs.map(\.afterMany))
        let size = Format.number(Double(count))
        // The figure for 100,000 entries, not scaled down: a process start is most of it.
        let target = 0.1
        let python = baseline.map { "python3 -c 'print(1)' \(Format.duration($0))" } ?? "skipped: no python3"
        table.add(
            ResultRow(
                what:
                    "first counter after another process appended \(Format.number(Double(many))) entries of another "
                    + "device (and its head) to a \(size)-entry ledger: checkpoint taken forward (median of "
                    + "\(runs.count); read whole before the appends: \(Format.duration(whole)))",
                figure: "\(Format.duration(afterMany)) (\(Format.ratio(afterMany, whole)) of the whole read)",
                target: "<= \(Format.duration(target)) (issue 38)", baseline: python,
                ratio: baseline.map { Format.ratio(afterMany, $0) } ?? "-", met: Format.yes(afterMany <= target)))
        table.add(
            ResultRow(
                what: "first counter after \(few) appended entries, \(Format.number(Double(count - many)))-entry "
                    + "ledger (median of \(runs.count)) [extra row]",
                figure: Format.duration(afterFew), target: "report", baseline: python,
                ratio: baseline.map { Format.ratio(afterFew, $0) } ?? "-", met: "-"))
        table.add(
            ResultRow(
                what: "counter reading the \(Format.number(Double(count - many - few)))-entry ledger whole before "
                    + "the appends (no checkpoint: full load, writes one; median of \(runs.count)) [extra row]",
                figure: Format.duration(whole), target: "report", baseline: python,
                ratio: baseline.map { Format.ratio(whole, $0) } ?? "-", met: "-"))
    }
}
