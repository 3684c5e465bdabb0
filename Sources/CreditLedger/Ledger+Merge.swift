/// What a merge did and found.
public struct MergeReport: Sendable, Equatable {
    /// Entries added, by device.
    public var added: [String: Int] = [:]
    /// Entries that were already here (the same device and sequence with the same content).
    public var alreadyPresent = 0
    /// Problems found; the device's entries from that point on were not merged.
    public var problems: [String] = []

    public var addedCount: Int { added.values.reduce(0, +) }
}

extension Ledger {
    /// Merges other devices' ledger files into this data directory: union by id, each device's lines copied
    /// byte for byte into that device's file here. Two different entries at one (device, sequence) are a fork, an
    /// id already here with other content is a conflict, a missing sequence is a gap: each is reported, and that
    /// device's later entries are not merged. An unreadable input line is an error naming it, and nothing merges.
    public func merge(files paths: [String]) throws -> MergeReport {
        var incoming:
            [(path: String, device: String, lines: [(entry: LedgerEntry, bytes: ArraySlice<UInt8>, line: Int)])] = []
        for path in paths {
            let bytes = try POSIXFile.readAll(path)
            var byDevice: [String: [(LedgerEntry, ArraySlice<UInt8>, Int)]] = [:]
            var order: [String] = []
            try bytes.withUnsafeBufferPointer { buffer in
                var start = 0
                var number = 0
                var context = LineReadContext()
                while start < buffer.count {
                    number += 1
                    guard let newline = buffer[start...].firstIndex(of: 0x0A) else {
                        throw LedgerError.corruptLine(
                            file: path, line: number, reason: "the last line has no newline (a torn write)")
                    }
                    let line = UnsafeBufferPointer(rebasing: buffer[start..<newline])
                    let entry: LedgerEntry
                    do throws(EntryParseError) { entry = try EntryCodec.parse(line, context: &context) } catch {
                        throw LedgerError.corruptLine(file: path, line: number, reason: error.reason)
                    }
                    if byDevice[entry.device] == nil { order.append(entry.device) }
                    byDevice[entry.device, default: []].append((entry, bytes[start...newline], number))
                    start = newline + 1
                }
            }
            for device in order {
                incoming.append((path, device, byDevice[device]!.map { (entry: $0.0, bytes: $0.1, line: $0.2) }))
            }
        }

        return try withLock {
            try refreshLocked()
            // What joins is decided in memory, by the same union a merge of two in-memory ledgers uses; then each
            // device's joining lines are written as they were read, one write and one fdatasync per device.
            var union = LedgerUnion(existing: entries)
            for group in incoming {
                let joined = union.add(
                    device: group.device, incoming: group.lines.map(\.entry), lines: group.lines.map(\.line),
                    source: group.path)
                guard !joined.isEmpty else { continue }
                var batch: [UInt8] = []
                for item in joined { batch.append(contentsOf: group.lines[item].bytes) }
                try writer.appendForeignLines(batch, to: path(forDevice: group.device), lostTrack: rereadLocked)
            }
            try refreshLocked()
            return union.report
        }
    }
}
