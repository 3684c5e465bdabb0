import DurableFiles
import LedgerEntries
import Signing

/// Where this device's ledger and the folder's copy of this device's file part ways: the ledger was restored from
/// an older copy (a backup, a snapshot) and used since, so the folder holds entries of this device that the ledger no
/// longer has, and the ledger holds entries written since in their place, under the same sequence numbers.
public struct RestoredFork: Sendable, Equatable, Encodable {
    /// The last sequence both hold (the same entry).
    public var common: Int64
    /// The folder's copy's last sequence: its entries after ``common`` are missing here.
    public var folderLast: Int64
    /// This ledger's last sequence of its own: its entries after ``common`` were written since the restore.
    public var hereLast: Int64

    /// What happened and how to recover, in words.
    func words(folder: String) -> String {
        let missing = Self.span(common + 1, folderLast)
        let since = Self.span(common + 1, hereLast)
        let their = folderLast - common == 1 ? "its" : "their"
        return "this device's ledger was restored from an older copy and used since: the folder holds this device's "
            + "\(missing), which this ledger no longer has, and this device has written \(since) since, in \(their) "
            + "place. Nothing was replaced and no entry is lost. To keep both, run `credit sync \(folder) "
            + "--recover-restored`: it takes this device's entries back from the folder and writes the ones made "
            + "since again after them (this device's file as it is now is kept beside it). If this data directory "
            + "was copied to another machine that uses it too, make that one a device of its own (`credit join`)"
    }

    private static func span(_ first: Int64, _ last: Int64) -> String {
        first == last ? "entry #\(first)" : "entries #\(first) to #\(last)"
    }
}

/// What `credit sync --recover-restored` did.
public struct RestoredRecovery: Sendable, Equatable, Encodable {
    /// This device's entries taken back from the folder (those the restore had lost).
    public var takenBack: Int
    /// This device's entries made since the restore, written again after them (an entry the folder held already
    /// is not written twice).
    public var writtenAgain: Int
    /// Where this device's file as it was before is kept.
    public var keptAt: String
}

extension AccountSync {
    /// Whether `copy` (the folder's copy of this device's file, checked whole) and this ledger's own file fork: each
    /// holds an entry the other does not under the same sequence. Nil when one is the start of the other.
    func restoredFork(with copy: MergeInput) -> RestoredFork? {
        guard copy.device == device, let hereLast = ledger.lastSequence(of: device) else { return nil }
        let lines = copy.lines
        guard let folderLast = lines.last?.entry.sequence else { return nil }
        for line in lines where line.entry.sequence <= hereLast {
            let sequence = line.entry.sequence
            if ledger.entry(device: device, sequence: sequence)?.mac != line.entry.mac {
                return RestoredFork(common: sequence - 1, folderLast: folderLast, hereLast: hereLast)
            }
        }
        return nil
    }

    /// Recovers a restored device with no entry lost: this device's file becomes the folder's copy (the entries the
    /// restore lost come back, as this device first wrote them), and the entries written here since the restore are
    /// appended again after them, each as it was (same id, content and time; new sequence, balance and chain). The
    /// file as it was is kept beside it (`<device>.jsonl.restored-<ms>`), and its signed head follows. Anything that
    /// fails puts the file and the head back as they were. Under the ledger's lock.
    func recoverRestoredLocked(from copy: MergeInput, _ fork: RestoredFork, folder: String, keys: LedgerKeys)
        throws -> RestoredRecovery
    {
        let path = ledger.path(forDevice: device)
        let madeSince = (fork.common + 1...fork.hereLast).compactMap { ledger.entry(device: device, sequence: $0) }
        let lines = copy.lines
        let there = Dictionary(lines.map { ($0.entry.id, $0.entry) }, uniquingKeysWith: { first, _ in first })
        if let clash = madeSince.first(where: { entry in there[entry.id].map { !$0.hasSameContent(as: entry) } ?? false
        }) {
            throw SyncError.restoredEntryClashes(id: clash.id, folder: folder)
        }
        let before = try ledger.readOwnFile()
        let headBefore = try ledger.readHead(of: device)
        let keptAt = path + ".restored-\(ledger.clock.now().milliseconds)"
        // Through `ledger/` held open, as every write of the data directory.
        let held = try ledger.heldDirectories().ledger
        let name = Files.lastComponent(of: path)
        try ledger.fileSystem.replaceAtomically(Files.lastComponent(of: keptAt), in: held, with: before, mode: 0o600)
        do {
            try ledger.fileSystem.replaceAtomically(
                name, in: held, with: lines.flatMap { Array($0.bytes) }, mode: 0o600)
            ledger.resetState()
            try ledger.refreshLocked()
            if let last = ledger.lastEntry(of: device) {
                try SignedHead.make(for: last, key: keys.headKey).write(
                    into: try ledger.headsDirectory(), fileSystem: ledger.fileSystem)
            }
            let outcomes = try ledger.appendLocked(madeSince.map(EntryDraft.init(again:)), times: madeSince.map(\.time))
            let written = outcomes.filter { if case .appended = $0 { true } else { false } }.count
            return RestoredRecovery(
                takenBack: Int(fork.folderLast - fork.common), writtenAgain: written, keptAt: keptAt)
        } catch {
            try? ledger.fileSystem.replaceAtomically(name, in: held, with: before, mode: 0o600)
            try? headBefore?.write(into: try ledger.headsDirectory(), fileSystem: ledger.fileSystem)
            ledger.resetState()
            try? ledger.refreshLocked()
            throw error
        }
    }
}

extension EntryDraft {
    /// `entry` to be written again, as it was: its id and content (the ledger gives it a new place in the chain).
    init(again entry: LedgerEntry) {
        self.init(
            id: entry.id, kind: entry.kind, feature: entry.feature, subject: entry.subject, quantity: entry.quantity,
            amount: entry.amount, refersTo: entry.refersTo, reason: entry.reason, text: entry.text,
            reference: entry.reference, product: entry.product, receipt: entry.receipt)
    }
}
