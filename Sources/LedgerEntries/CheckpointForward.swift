import DurableFiles
import Signing

/// Takes a verified checkpoint forward over what was appended to the ledger files since it was written (by a merge,
/// a sync, another process), reading the new lines alone: each one is checked as a full load checks it (its MAC,
/// its chain and sequence, its device), and counted as a full load counts it, against what the checkpoint keeps of
/// the lines before (their ids, the store transactions credited, each file's chain). Anything a full load would
/// have to say (an id read before, a second credit of a transaction, a torn or bad line, a signed head the files do
/// not bear out) is left to a full load, which says it; a file changed other than by lines at its end is said here.
struct CheckpointForward {
    typealias Stamp = LedgerCheckpoint.Stamp
    typealias Chain = LedgerCheckpoint.Chain
    typealias FileMark = LedgerCheckpoint.FileMark

    let directory: String
    /// Where the checkpoint taken forward is written.
    let fileSystem: any FileSystem
    let device: String
    let macKey: [UInt8]
    let checkpoint: LedgerCheckpoint
    let now: (files: [Stamp], heads: [Stamp])

    /// The new lines' id hashes, in the order read.
    private var newIDs: [UInt64] = []
    private var seen = Set<UInt64>()
    private var references: Set<UInt64>
    private var balance: Int64

    init(
        directory: String, fileSystem: any FileSystem, device: String, macKey: [UInt8], checkpoint: LedgerCheckpoint,
        now: ([Stamp], [Stamp])
    ) {
        self.directory = directory
        self.fileSystem = fileSystem
        self.device = device
        self.macKey = macKey
        self.checkpoint = checkpoint
        self.now = (now.0, now.1)
        references = Set(checkpoint.references)
        balance = checkpoint.balance
    }

    /// The balance taken forward (and the checkpoint written for it when the directory can be written), or why the
    /// ledger must be read whole.
    mutating func run() -> LedgerCheckpoint.Counter {
        let before = Dictionary(checkpoint.files.map { ($0.stamp.name, $0) }, uniquingKeysWith: { first, _ in first })
        if let change = firstChange(before) { return .readWhole(change) }
        var marks: [FileMark] = []
        for stamp in now.files {
            if let old = before[stamp.name], old.stamp == stamp {
                marks.append(old)
                continue
            }
            let start = before[stamp.name]?.stamp.size ?? 0
            let chain = before[stamp.name]?.chain ?? Chain(lines: 0, lastSequence: 0, lastMAC: nil, isSigned: nil)
            guard
                let file = readNewLines(
                    of: stamp, from: start, chain: chain, lineMarks: before[stamp.name]?.lineMarks ?? [])
            else { return .readWhole(nil) }
            marks.append(file)
        }
        guard headsBearOut(marks) else { return .readWhole(nil) }
        // The ids file is read only when there are new ids to look for in it.
        var ids: [UInt64]?
        var forward = checkpoint
        if !newIDs.isEmpty {
            guard let hashes = readIDs() else { return .readWhole(nil) }
            // A few new ids go in the checkpoint itself, as an append's do; more, and the file is written again.
            if checkpoint.ids.recent.count + newIDs.count <= CheckpointIDs.recentLimit {
                forward.ids.recent += newIDs
            } else {
                ids = hashes + checkpoint.ids.recent + newIDs
            }
        }
        forward.files = marks
        forward.heads = now.heads
        forward.balance = balance
        forward.references = references.sorted()
        write(forward, ids: ids)
        return .counted(MicroCredits(balance), newEntries: newIDs.count)
    }

    /// The first ledger file changed other than by lines at its end (removed, put in another's place, cut,
    /// rewritten), or nil.
    private func firstChange(_ before: [String: FileMark]) -> LedgerCheckpoint.FileChange? {
        let names = Set(now.files.map(\.name))
        if let gone = checkpoint.files.first(where: { !names.contains($0.stamp.name) }) {
            return change(.removed, gone.stamp.name)
        }
        for stamp in now.files {
            guard let old = before[stamp.name]?.stamp, old != stamp else { continue }
            if old.deviceID != stamp.deviceID || old.inode != stamp.inode { return change(.replaced, stamp.name) }
            if stamp.size < old.size { return change(.cut, stamp.name) }
            if stamp.size == old.size || !LedgerCheckpoint.stillEnds(path(of: stamp.name), as: old) {
                return change(.rewritten, stamp.name)
            }
        }
        return nil
    }

    private func change(_ kind: LedgerCheckpoint.FileChange.Kind, _ name: String) -> LedgerCheckpoint.FileChange {
        LedgerCheckpoint.FileChange(kind: kind, file: path(of: name))
    }

    private func path(of name: String) -> String { directory + "/ledger/" + name }

    /// Reads the lines of the file `stamp` names after `start` (where its chain stood at `chain`) as a full load
    /// reads them, and counts them; nil when one fails a check, the last is torn, the file is not as long as its
    /// stamp said, or a line is one the counter leaves to a full load.
    private mutating func readNewLines(of stamp: Stamp, from start: Int64, chain: Chain, lineMarks: [LineMark])
        -> FileMark?
    {
        var file = DeviceFile(
            path: path(of: stamp.name), size: start, lines: chain.lines, lastSequence: chain.lastSequence,
            lastMAC: chain.lastMAC.map(ChainField.digest), isSigned: chain.isSigned)
        var entries: [LedgerEntry] = []
        do {
            let owner = String(stamp.name.dropLast(6))
            if let read = try file.readNewLines(into: &entries, owner: owner, macs: LineMACCheck(key: macKey)) {
                guard read.tornTail == nil else { return nil }
                try file.checkChain(of: entries[read.first...])
                _ = file.take(read, of: entries)
            }
        } catch {
            return nil
        }
        guard file.size == stamp.size, entries.allSatisfy({ count($0) }) else { return nil }
        let mac: ChainDigest?
        switch file.lastMAC {
        case nil: mac = nil
        case .digest(let digest): mac = digest
        case .text: return nil
        }
        // Grown by appends only: where the last full read's parts began still holds.
        return FileMark(
            stamp: stamp,
            chain: Chain(lines: file.lines, lastSequence: file.lastSequence, lastMAC: mac, isSigned: file.isSigned),
            lineMarks: lineMarks)
    }

    /// Counts one new entry as a full load would, when it can do so without the entries before it: false for an
    /// id seen before in this read (the checkpoint's ids are looked at once, after), a second top-up of a store
    /// transaction, or a sum that would overflow.
    private mutating func count(_ entry: LedgerEntry) -> Bool {
        let hash = entry.stableIDHash
        guard seen.insert(hash).inserted else { return false }
        newIDs.append(hash)
        if entry.kind == .topup, entry.refersTo == nil, let reference = entry.reference {
            guard references.insert(EntryIDIndex.stableHash(reference)).inserted else { return false }
        }
        let (sum, overflow) = balance.addingReportingOverflow(entry.amount.rawValue)
        guard !overflow else { return false }
        balance = sum
        return true
    }

    /// Whether every signed head changed since the checkpoint signs the last line of its device's file as now read
    /// (what a merge or a sync leaves), and none went; a full load looks at any other.
    private func headsBearOut(_ marks: [FileMark]) -> Bool {
        let names = Set(now.heads.map(\.name))
        guard checkpoint.heads.allSatisfy({ names.contains($0.name) }) else { return false }
        for head in now.heads where !checkpoint.heads.contains(head) {
            let id = String(head.name.dropLast(5))
            guard id != device, let signed = try? SignedHead.read(in: directory, device: id), signed.device == id,
                let chain = marks.first(where: { $0.stamp.name == id + ".jsonl" })?.chain, chain.lines > 0,
                signed.sequence == chain.lastSequence, signed.mac == chain.lastMAC?.hex
            else { return false }
        }
        return true
    }

    /// The hashes of `checkpoint-ids`, when the file verifies and none of the new ids is among them or the
    /// checkpoint's recent ones; nil otherwise.
    private func readIDs() -> [UInt64]? {
        guard !checkpoint.ids.recent.contains(where: seen.contains),
            // Refused unread when larger than the checkpoint says (a file made as large as the disk costs nothing).
            let bytes = try? Files.readAll(CheckpointIDs.path(in: directory), limit: checkpoint.ids.bytes),
            let hashes = checkpoint.ids.hashes(
                in: bytes, mac: { try? HMACSHA256.authenticationCode(for: $0, key: macKey) }),
            !hashes.contains(where: seen.contains)
        else { return nil }
        return hashes
    }

    /// Writes the checkpoint taken forward, with `checkpoint-ids` for `ids` when new ids were read, unless the
    /// directory cannot be written or a file or head changed since it was read (a writer that takes no lock). A
    /// cache: nothing is said when it is not written.
    private func write(_ forward: LedgerCheckpoint, ids: [UInt64]?) {
        guard !LedgerDirectory.cannotWrite(directory), let held = try? HeldDataDirectory(directory) else { return }
        let mac: ([UInt8]) -> [UInt8] = { (try? HMACSHA256.authenticationCode(for: $0, key: macKey)) ?? [] }
        var forward = forward
        if let ids {
            guard let written = CheckpointIDs.writeWhole(ids, in: held.data, fileSystem: fileSystem, mac: mac) else {
                return
            }
            forward.ids = written
        }
        guard let after = LedgerCheckpoint.currentStamps(in: directory), after.files == forward.files.map(\.stamp),
            after.heads == forward.heads
        else { return }
        try? fileSystem.replaceUnsynced("checkpoint", in: held.data, with: forward.encoded(mac: mac), mode: 0o600)
    }
}
