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
        var incoming: [(path: String, device: String, lines: [(entry: LedgerEntry, bytes: ArraySlice<UInt8>, line: Int)])] = []
        for path in paths {
            let bytes = try POSIXFile.readAll(path)
            var byDevice: [String: [(LedgerEntry, ArraySlice<UInt8>, Int)]] = [:]
            var order: [String] = []
            try bytes.withUnsafeBufferPointer { buffer in
                var start = 0
                var number = 0
                while start < buffer.count {
                    number += 1
                    guard let newline = buffer[start...].firstIndex(of: 0x0A) else {
                        throw LedgerError.corruptLine(file: path, line: number, reason: "the last line has no newline (a torn write)")
                    }
                    let line = UnsafeBufferPointer(rebasing: buffer[start..<newline])
                    let entry: LedgerEntry
                    do throws(EntryParseError) { entry = try EntryCodec.parse(line) } catch {
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

        let lock = try DirectoryLock(path: lockPath)
        defer { lock.unlock() }
        try refreshLocked()
        var report = MergeReport()
        var bySequence: [String: [Int64: LedgerEntry]] = [:]
        for entry in entries { bySequence[entry.device, default: [:]][entry.sequence] = entry }

        for group in incoming {
            var last = head(of: group.device)?.sequence ?? 0
            var batch: [UInt8] = []
            var ids: [String: LedgerEntry] = [:]
            for item in group.lines.sorted(by: { $0.entry.sequence < $1.entry.sequence }) {
                let entry = item.entry
                let place = "\(group.path) line \(item.line)"
                if entry.sequence <= last {
                    if let here = bySequence[group.device]?[entry.sequence], here == entry {
                        report.alreadyPresent += 1
                        continue
                    }
                    report.problems.append(
                        "fork: \(place) is \(group.device) #\(entry.sequence), but a different entry is already "
                            + "recorded at that place; \(group.device)'s later entries were not merged")
                    break
                }
                guard entry.sequence == last + 1 else {
                    report.problems.append(
                        "gap: \(place) is \(group.device) #\(entry.sequence), but #\(last + 1) is missing; "
                            + "the copy is incomplete, and \(group.device)'s later entries were not merged")
                    break
                }
                if let existing = self.entry(id: entry.id) ?? ids[entry.id], !existing.hasSameContent(as: entry) {
                    report.problems.append(
                        "conflict: \(place) has id \(entry.id) with other content (recorded: "
                            + "\(existing.contentSummary); incoming: \(entry.contentSummary)); \(group.device)'s "
                            + "later entries were not merged")
                    break
                }
                ids[entry.id] = entry
                batch.append(contentsOf: item.bytes)
                bySequence[group.device, default: [:]][entry.sequence] = entry
                last = entry.sequence
                report.added[group.device, default: 0] += 1
            }
            if !batch.isEmpty {
                try appendForeignLines(batch, device: group.device)
                try refreshLocked()
            }
        }
        return report
    }
}
