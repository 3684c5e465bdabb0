import CreditLedger
import Signing

/// The sync row (issue 28): `Ledger.sync` taking 1,000 new entries from a synced folder of 10 devices' files,
/// beside `Ledger.merge` of the same files into the same data directory, in the same run.
extension LedgerBenchmarks {
    /// A data directory holding every one of 10 other devices' entries but its last 100, and a folder holding all:
    /// the sync and the merge each take the 1,000 new entries, from a fresh copy of the directory each run. Both
    /// read and check every line of the 10 files; the sync also writes this device's file into the folder.
    func syncFromFolder(into table: inout ResultTable) throws {
        let devices = 10
        let fresh = 100
        let perDevice = max(options.entries / devices, fresh * 2)
        let base = work + "/sync"
        let template = base + "/data"
        let folder = SyncFolder(base + "/vault")
        try LedgerData.makeDirectory(base)
        try LedgerData.makeDirectory(folder.root)
        try LedgerData.makeDirectory(folder.creditDirectory)
        try LedgerData.makeDirectory(folder.ledgerDirectory)
        let own = try Ledger.openSigned(directory: template)
        _ = try own.append(LedgerBenchmarks.charge(0))
        let keys = try LedgerKeys.load(from: template)
        var files: [String] = []
        for index in 0..<devices {
            let device = "f01de500-0000-4000-8000-0000000000\(10 + index)"
            var factory = try EntryFactory(device: device, macKey: keys.macKey, seed: UInt64(100 + index))
            var lines: [UInt8] = []
            var known: [UInt8] = []
            for number in 0..<perDevice {
                lines += factory.next().line
                if number == perDevice - fresh - 1 { known = lines }
            }
            let file = folder.ledgerDirectory + "/\(device).jsonl"
            try LedgerData.writeFile(file, lines)
            try LedgerData.writeFile(template + "/ledger/\(device).jsonl", known)
            files.append(file)
        }
        var merges: [Double] = []
        var syncs: [Double] = []
        for run in 0..<options.runs {
            merges.append(
                try timed(copyOf: template, as: base + "/merge-\(run)", expecting: devices * fresh) {
                    try AccountSync($0).merge(files: files).addedCount
                })
            syncs.append(
                try timed(copyOf: template, as: base + "/sync-\(run)", expecting: devices * fresh) {
                    var memo = SyncMemo()
                    return try AccountSync($0).sync(through: folder, memo: &memo).takenCount
                })
            LedgerData.remove(folder.ledgerDirectory + "/\(own.device).jsonl")
        }
        let sync = Measure.median(syncs)
        let merge = Measure.median(merges)
        table.add(
            ResultRow(
                what: "sync: 1,000 new entries from a folder of \(devices) devices x "
                    + "\(Format.number(Double(perDevice))) entries (open excluded; baseline: merge of the same files)",
                figure: Format.duration(sync), target: "<= 2x merge", baseline: Format.duration(merge),
                ratio: Format.ratio(sync, merge), met: Format.yes(sync <= 2 * merge)))
    }

    /// Copies `template` to `path`, opens it (not timed), and times `body` on it; checks it took `expecting`.
    private func timed(copyOf template: String, as path: String, expecting: Int, _ body: (Ledger) throws -> Int)
        throws -> Double
    {
        _ = try Measure.run("/bin/cp", ["-a", template, path], captureOutput: false)
        defer { LedgerData.remove(path) }
        let ledger = try Ledger.openSigned(directory: path)
        let result = try Measure.time { try body(ledger) }
        guard result.value == expecting else {
            throw BenchError("took \(result.value) entries from the folder, not \(expecting)")
        }
        return result.wall
    }
}
