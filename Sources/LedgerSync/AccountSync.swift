import DurableFiles
import LedgerEntries
import Signing

/// What a merge did and found.
public struct MergeReport: Sendable, Equatable {
    /// Entries added, by device.
    public var added: [String: Int] = [:]
    /// Entries that were already here (the same device and sequence with the same content).
    public var alreadyPresent = 0
    /// Problems found. In an unsigned ledger, a fork, gap or conflict: the device's entries from that point on were
    /// not merged. In a signed one (which refuses those whole), top-ups crediting a store transaction that another
    /// top-up already credits (`receipt: ...`): merged, as they verify, and counted once.
    public var problems: [String] = []
    /// Top-ups that joined crediting a store transaction another top-up already credits: counted once.
    public var receiptsCountedOnce: [String] = []
    /// The devices whose signed heads this merge took or brought up to date.
    public var headsKept: [String] = []

    public var addedCount: Int { added.values.reduce(0, +) }
}

/// The account operations on one device's ledger: other devices' files merged into it (given by hand, or found
/// in a folder something else syncs), and a new data directory made another device of the account
/// (``join(directory:account:carrying:ids:fileSystem:)``). It keeps no state of its own beyond the ledger it works
/// on: everything it writes goes through that ledger's lock, writer and file system.
public struct AccountSync {
    /// The ledger merged into.
    public let ledger: Ledger

    /// The account operations on `ledger`.
    public init(_ ledger: Ledger) {
        self.ledger = ledger
    }

    /// The ledger's own device.
    var device: String { ledger.device }

    /// Merges other devices' ledger files (or data directories: their `ledger/*.jsonl` with `heads/`) into this
    /// data directory: union by id, each device's lines copied byte for byte into that device's file here.
    ///
    /// A signed ledger takes each file whole or not at all: every line must verify under this account's key (MAC
    /// over the exact bytes, the chain, sequences from 1), a head given with it must verify and agree, and the file
    /// must agree with what is here (no fork, no id with other content). Anything else throws a ``MergeRefusal``
    /// naming the file, the line and why, and nothing is written. Every merged device's signed head is then kept
    /// (the one given, or one signed here for the ledger.entries verified), so `credit verify` sees truncation of any
    /// device's file. A top-up crediting a store transaction another top-up already credits is merged, counted
    /// once, and reported in ``MergeReport/problems``.
    ///
    /// An unsigned ledger merges as it always has: a fork, an id with other content or a missing sequence is
    /// reported and that device's later ledger.entries are not merged; an unreadable line is an error and nothing merges.
    public func merge(files paths: [String]) throws -> MergeReport {
        // Refused as a charge is: the directory was said to be read as it is, with nothing written.
        guard !ledger.isReadOnly else {
            throw LedgerError.invalid(
                "\(ledger.directory) cannot be written (a read-only mount, or no write permission): nothing was "
                    + "merged")
        }
        guard ledger.isSigned || ledger.authenticator != nil else { return try mergeUnsigned(files: paths) }
        let keys = try LedgerKeys.load(from: ledger.directory)
        var inputs: [MergeInput] = []
        for found in try MergeInput.read(paths) {
            inputs.append(
                try MergeInput.checked(
                    path: found.path, head: found.head, headPath: found.headPath, macKey: keys.macKey,
                    publicKey: keys.headKey.publicKey, in: found.ledger))
        }
        return try ledger.withLock {
            try ledger.refreshLocked()
            var union = LedgerUnion(existing: ledger.entries)
            var writes: [(device: String, bytes: [UInt8])] = []
            for input in inputs {
                guard let device = input.device else { continue }
                let lines = input.lines
                let joined = union.add(
                    device: device, incoming: lines.map(\.entry), lines: lines.map(\.line), source: input.path)
                if let problem = union.report.problems.first {
                    throw MergeRefusal(file: input.path, line: nil, reason: .disagrees(problem))
                }
                guard !joined.isEmpty else { continue }
                writes.append((device, input.bytes(of: joined, in: lines)))
            }
            // Everything is checked: only now is anything written.
            try appendJoinedLocked(writes)
            var report = union.report
            report.problems += report.receiptsCountedOnce.map { "receipt: " + $0 }
            report.headsKept = try keepMergedHeadsLocked(inputs, key: keys.headKey)
            return report
        }
    }

    /// Appends each device's joining lines as they were read, one write and one fdatasync per device, then reads
    /// the ledger again.
    func appendJoinedLocked(_ writes: [(device: String, bytes: [UInt8])]) throws {
        for write in writes {
            try ledger.writer.appendForeignLines(
                write.bytes, to: ledger.path(forDevice: write.device), lostTrack: ledger.rereadLocked)
        }
        try ledger.refreshLocked()
    }

    /// Keeps each merged device's signed head (not this device's own, which appending keeps): the head that came
    /// with its file when it signs the device's last entry here, else one signed here for that entry. A head here
    /// that this ledger.directory's copy no longer bears out is evidence for `credit verify`, and is left as it is.
    func keepMergedHeadsLocked(_ inputs: [MergeInput], key: P256PrivateKey) throws -> [String] {
        var kept: [String] = []
        var given: [String: SignedHead] = [:]
        for input in inputs {
            guard let device = input.device, let head = input.head else { continue }
            if head.sequence > (given[device]?.sequence ?? 0) { given[device] = head }
        }
        for device in Set(inputs.compactMap(\.device)).sorted() where device != self.device {
            guard let last = ledger.lastEntry(of: device), last.mac != nil else { continue }
            let current = try? ledger.readHead(of: device)
            if let current {
                if current.sequence == last.sequence && current.mac == last.mac { continue }
                guard current.isValid(for: key.publicKey), current.sequence < last.sequence,
                    ledger.entry(device: device, sequence: current.sequence)?.mac == current.mac
                else { continue }
            }
            let head: SignedHead
            if let offered = given[device], offered.sequence == last.sequence, offered.mac == last.mac {
                head = offered
            } else {
                head = try SignedHead.make(for: last, key: key)
            }
            try ledger.writer.ensureDurableDirectory(ledger.directory + "/heads")
            try head.write(into: try ledger.headsDirectory(), fileSystem: ledger.fileSystem)
            kept.append(device)
        }
        return kept
    }

    /// The merge of an unsigned ledger (made before signing): partial, as before.
    private func mergeUnsigned(files paths: [String]) throws -> MergeReport {
        var incoming:
            [(path: String, device: String, lines: [(entry: LedgerEntry, bytes: ArraySlice<UInt8>, line: Int)])] = []
        for path in paths {
            let bytes = try Files.readAll(path)
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

        return try ledger.withLock {
            try ledger.refreshLocked()
            // What joins is decided in memory, by the same union a merge of two in-memory ledgers uses; then each
            // device's joining lines are written as they were read, one write and one fdatasync per device.
            var union = LedgerUnion(existing: ledger.entries)
            for group in incoming {
                let joined = union.add(
                    device: group.device, incoming: group.lines.map(\.entry), lines: group.lines.map(\.line),
                    source: group.path)
                guard !joined.isEmpty else { continue }
                var batch: [UInt8] = []
                for item in joined { batch.append(contentsOf: group.lines[item].bytes) }
                try ledger.writer.appendForeignLines(
                    batch, to: ledger.path(forDevice: group.device), lostTrack: ledger.rereadLocked)
            }
            try ledger.refreshLocked()
            return union.report
        }
    }
}
