import DurableFiles

extension LedgerCheckpoint {
    /// The checkpoint a ledger wrote or found current last: its ids, how many of the ledger's entries they cover,
    /// and its bytes (a checkpoint on disk that is not these bytes was written by another process since).
    struct Kept {
        var ids: CheckpointIDs
        var covered: Int
        var bytes: [UInt8]
    }

    /// Writes the checkpoint for what `ledger` has loaded now, if it is worth one: a signed ledger, everything on
    /// disk read, and nothing a full load would have to say (a conflicting duplicate, another device's file behind
    /// its signed head). Must hold the ledger's lock.
    ///
    /// After an append, the new entries' ids go in the checkpoint itself (``CheckpointIDs/recent``), or past
    /// ``CheckpointIDs/recentLimit`` onto the end of `checkpoint-ids` as a chunk: what an append writes grows with
    /// what it appended, not with the ledger. `checkpoint-ids` is written whole only when this ledger knows of none
    /// that is current (after a full load that found the checkpoint out of date).
    /// Never fails: a checkpoint not written only means a full load next time.
    static func writeLocked(for ledger: Ledger) {
        guard let fresh = current(of: ledger), let authenticator = ledger.authenticator,
            // Through the data directory held open: a swapped directory never receives it.
            let held = ledger.held
        else { return }
        let mac: ([UInt8]) -> [UInt8] = { authenticator.authenticationCode(for: $0) }
        let existing = try? Files.readAll(path(in: ledger.directory), limit: sizeLimit)
        let entries = ledger.entries
        var ids: CheckpointIDs
        if let kept = ledger.keptCheckpoint, existing == kept.bytes, kept.covered <= entries.count {
            let added = entries[kept.covered...].map { $0.stableIDHash }
            if kept.ids.recent.count + added.count <= CheckpointIDs.recentLimit {
                ids = kept.ids
                ids.recent += added
            } else if let appended = kept.ids.appending(added, in: held.data, fileSystem: ledger.fileSystem, mac: mac) {
                ids = appended
            } else {
                guard
                    let written = CheckpointIDs.writeWhole(
                        allIDs(of: entries), in: held.data, fileSystem: ledger.fileSystem, mac: mac)
                else { return }
                ids = written
            }
        } else if let existing, let found = decoded(existing, for: ledger, mac: mac), found.hasSameEntries(as: fresh) {
            if found.hasSameState(as: fresh) {
                // Current already (another process wrote it): nothing to write.
                ledger.keptCheckpoint = Kept(ids: found.ids, covered: entries.count, bytes: existing)
                return
            }
            // Only where the files' last full reads were cut differs: the ids it vouches for are these entries'
            // still, and `checkpoint-ids` is not written again (a million ids' hashes, 8 MB).
            ids = found.ids
        } else {
            guard
                let written = CheckpointIDs.writeWhole(
                    allIDs(of: entries), in: held.data, fileSystem: ledger.fileSystem, mac: mac)
            else { return }
            ids = written
        }
        var checkpoint = fresh
        checkpoint.ids = ids
        let bytes = checkpoint.encoded(mac: mac)
        ledger.keptCheckpoint = nil
        if existing != bytes {
            // Through the seam's replace (an exclusively made temporary, renamed over the old one: a link, a hard
            // link or a FIFO planted at `checkpoint` is replaced, never written through), without an fsync: after a
            // crash a partial or lost checkpoint does not verify, or no longer matches the files, and a full load
            // follows. On the real file system, as before: a cache is not part of what a test layer underneath
            // checks.
            guard
                (try? ledger.fileSystem.replaceUnsynced("checkpoint", in: held.data, with: bytes, mode: 0o600)) != nil
            else { return }
        }
        ledger.keptCheckpoint = Kept(ids: ids, covered: entries.count, bytes: bytes)
    }

    /// `bytes` decoded: taken from what the ledger's first read decoded when they are the same bytes.
    private static func decoded(_ bytes: [UInt8], for ledger: Ledger, mac: ([UInt8]) -> [UInt8]) -> LedgerCheckpoint? {
        defer { ledger.checkpointRead = nil }
        if let read = ledger.checkpointRead, read.bytes == bytes { return read.checkpoint }
        return decode(bytes, mac: mac)
    }

    /// The stable hashes of every entry's id. Each id is read in place: a copy of each whole entry (its strings
    /// retained and released) was most of the time this took.
    private static func allIDs(of entries: [LedgerEntry]) -> [UInt64] {
        entries.withUnsafeBufferPointer { list in
            [UInt64](unsafeUninitializedCapacity: list.count) { hashes, made in
                for index in list.indices { hashes[index] = list[index].stableIDHash }
                made = list.count
            }
        }
    }

    /// Whether `other` vouches for the same files, heads, balance and credits (whatever its ids file).
    func hasSameState(as other: LedgerCheckpoint) -> Bool {
        hasSameEntries(as: other) && files.map(\.lineMarks) == other.files.map(\.lineMarks)
    }

    /// Whether `other` vouches for the same entries: ``hasSameState(as:)`` but where each file's last full read was
    /// cut (``LineMark``).
    func hasSameEntries(as other: LedgerCheckpoint) -> Bool {
        device == other.device && balance == other.balance && heads == other.heads && references == other.references
            && files.map { ($0.stamp, $0.chain) }.elementsEqual(other.files.map { ($0.stamp, $0.chain) }, by: ==)
    }

    /// The checkpoint of what `ledger` has loaded now, its ids not filled in; nil when it is worth none.
    private static func current(of ledger: Ledger) -> LedgerCheckpoint? {
        let device = ledger.device
        guard ledger.isSigned, ledger.authenticator != nil, isPlain(device),
            !ledger.notices.contains(where: { if case .conflictingDuplicate = $0 { true } else { false } }),
            // Nor while another device's file is behind its head: `credit balance` reads it all, and says so.
            !ledger.hasMergedHeadNotice,
            let now = currentStamps(in: ledger.directory)
        else { return nil }
        var marks: [FileMark] = []
        for stamp in now.files {
            let owner = String(stamp.name.dropLast(6))
            guard let chain = chain(of: ledger.files[owner], size: stamp.size) else { return nil }
            marks.append(FileMark(stamp: stamp, chain: chain, lineMarks: ledger.files[owner]?.lineMarks ?? []))
        }
        // Every file read is still there.
        let names = Set(now.files.map(\.name))
        guard ledger.files.values.allSatisfy({ $0.size == 0 || names.contains(Files.lastComponent(of: $0.path)) })
        else { return nil }
        let references = ledger.state.creditedReferenceNames.map(EntryIDIndex.stableHash).sorted()
        return LedgerCheckpoint(
            device: device, balance: ledger.balance.rawValue, files: marks, heads: now.heads, references: references,
            ids: CheckpointIDs(count: 0, bytes: 0, tag: .zero))
    }

    /// Where `file` (nil: not read, as an empty file is not) stands, when it was read to `size` exactly and its
    /// last MAC is one a checkpoint can hold.
    private static func chain(of file: DeviceFile?, size: Int64) -> Chain? {
        guard let file else { return size == 0 ? Chain(lines: 0, lastSequence: 0, lastMAC: nil, isSigned: nil) : nil }
        guard file.size == size else { return nil }
        let mac: ChainDigest?
        switch file.lastMAC {
        case nil: mac = nil
        case .digest(let digest): mac = digest
        case .text: return nil
        }
        return Chain(lines: file.lines, lastSequence: file.lastSequence, lastMAC: mac, isSigned: file.isSigned)
    }
}
