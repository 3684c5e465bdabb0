import Clocks
import DurableFiles
import Signing

/// A user's credit ledger in a data directory: one append-only JSON-lines file per device under `ledger/`, this
/// device's id in `device`. The balance is the sum of the amounts over distinct entry ids, whatever the order.
///
/// Every change takes an exclusive lock on `ledger/.lock` once, re-reads what other processes appended, checks,
/// appends with one `write` and one `fdatasync` and, after an append to this device's file, keeps the signed head
/// and the checkpoint up, all before it unlocks and returns. Nothing is ever edited or removed.
///
/// The ledger is the lock and the rules; what it knows is a ``LedgerState`` (entries, index, tallies, balance: no
/// I/O), each device file is a ``DeviceFile`` (reading), and the writes go through a ``DeviceFileWriter``.
public final class Ledger {
    /// The data directory.
    public let directory: String
    /// This device's id.
    public private(set) var device: String = ""
    /// The starting credit of a new ledger: £5.00, a placeholder.
    public static let defaultOpeningCredit = MicroCredits(5_000_000)

    package let clock: any LedgerClock
    let ids: any IDSource
    /// Every change to a file goes through it (the reliability suites put a faulty or forgetful one underneath).
    public let fileSystem: any FileSystem
    /// Signs new entries when this device's file is signed.
    public var authenticator: (any EntryAuthenticator)?
    /// Told after each durable append to this device's file, after the signed head and the checkpoint are kept
    /// (for a caller's own follow-ups; the ledger keeps those two itself).
    public var observers: [any AppendObserver] = []

    /// What loading and appending found and did (torn tails moved aside, conflicting duplicates, a signed head not
    /// kept up), in order.
    public private(set) var notices: [LedgerNotice] = []
    /// Told of each notice as it is added (after opening: what the open found is in ``notices`` already).
    public var onNotice: ((LedgerNotice) -> Void)?
    /// Whether this open made a new ledger.
    public private(set) var wasCreated = false
    /// Whether the data directory cannot be written (a read-only mount, a backup without write permission): the
    /// ledger was read as it is, no lock file made, no torn tail set aside, no head or checkpoint written, and an
    /// append throws ``LedgerError/invalid(_:)`` without writing. ``LedgerNotice/readOnly(directory:)`` says so
    /// among the ``notices``; a command collects nothing from a store then either.
    public private(set) var isReadOnly = false

    /// The entries read, their index, tallies and balance.
    var state = LedgerState()
    /// Every device file read, by device.
    package var files: [String: DeviceFile] = [:]
    /// `ledger/`'s names, listed again only when the directory changed.
    var ledgerListing = DirectoryListing()
    package let writer: DeviceFileWriter
    /// Keeps this device's signed head after each append (a ledger opened with
    /// ``openSigned(directory:clock:ids:fileSystem:)``).
    var headUpkeep: HeadUpkeep?
    /// Whether the checkpoint is rewritten after each append.
    var keepsCheckpoint = false
    /// The checkpoint this ledger wrote (or found current) last, and how many of ``entries`` its ids cover.
    var keptCheckpoint: LedgerCheckpoint.Kept?
    /// The checkpoint a first read took its line marks from, with its bytes: the open's checkpoint upkeep, which
    /// finds the same bytes on disk, takes it from here rather than verifying and decoding them again.
    var checkpointRead: (bytes: [UInt8], checkpoint: LedgerCheckpoint)?
    /// Checks every signed line read (a ledger opened with ``openSigned(directory:clock:ids:fileSystem:)``): a
    /// changed line stops the read, so nothing is shown or appended on top of it.
    var lineMACs: LineMACCheck?
    /// Whether this ledger holds its directory's lock now (``withLock(_:)``).
    private var holdsLock = false
    /// The data directory, `ledger/` and the directories written in it, held by their descriptors from the open on
    /// (nil: a read-only ledger, which writes nothing): every write goes to the directories checked.
    private(set) var held: HeldDataDirectory?
    /// The lock on `ledger/.lock` of a writable ledger, its descriptor kept open between changes.
    private lazy var writerLock =
        held.map { KeptFileLock(name: ".lock", in: $0.ledger) } ?? KeptFileLock(path: lockPath)

    /// Every entry of every device file, in the order read.
    public var entries: [LedgerEntry] { state.entries }
    /// The balance: the sum of amounts over distinct ids.
    public var balance: MicroCredits { state.balance }

    /// Opens the ledger in `directory`, creating it (with its opening credit) if there is none. `authenticator`
    /// signs a new ledger's entries; an existing unsigned ledger stays unsigned until upgraded. Every change to a
    /// file goes through `fileSystem`.
    public convenience init(
        directory: String, clock: any LedgerClock = SystemClock(), ids: any IDSource = RandomIDs(),
        authenticator: (any EntryAuthenticator)? = nil, openingCredit: MicroCredits = Ledger.defaultOpeningCredit,
        create: Bool = true, fileSystem: any FileSystem = SystemFileSystem()
    ) throws {
        try self.init(
            unopened: directory, clock: clock, ids: ids, authenticator: authenticator, fileSystem: fileSystem)
        try withLock { try openLocked(create: create, openingCredit: openingCredit) }
    }

    /// A ledger not read yet (its directories made): ``openLocked(create:openingCredit:)`` under the lock reads it.
    /// `held`: the data directory, checked and held open already by the caller (who made the keys through it).
    init(
        unopened directory: String, clock: any LedgerClock, ids: any IDSource,
        authenticator: (any EntryAuthenticator)?, fileSystem: any FileSystem, held: HeldDataDirectory? = nil
    ) throws {
        self.directory = directory
        self.clock = clock
        self.ids = ids
        self.authenticator = authenticator
        self.fileSystem = fileSystem
        writer = DeviceFileWriter(fileSystem: fileSystem, ledgerDirectory: directory + "/ledger")
        // The data directory is hostile input: a link, another user's directory or one others may write in is
        // refused before anything is read through it or made in it.
        if let held {
            // Checked and opened by the caller: looked at again by path, a directory swapped since would be refused
            // though nothing reaches it.
            self.held = held
            writer.held = held
            return
        }
        try LedgerDirectory.check(directory)
        if LedgerDirectory.cannotWrite(directory) {
            isReadOnly = true
        } else {
            let held = try HeldDataDirectory.making(directory, fileSystem: fileSystem)
            self.held = held
            writer.held = held
        }
    }

    // MARK: paths

    public var ledgerDirectory: String { directory + "/ledger" }
    var lockPath: String { ledgerDirectory + "/.lock" }
    var devicePath: String { LedgerDirectory.devicePath(in: directory) }
    var tornDirectory: String { directory + "/torn" }

    /// The file holding `device`'s entries.
    public func path(forDevice device: String) -> String { ledgerDirectory + "/" + device + ".jsonl" }

    /// The directories held open, for a write: a read-only ledger has none, and writes nothing.
    package func heldDirectories() throws -> HeldDataDirectory {
        guard let held else {
            throw LedgerError.invalid("\(directory) cannot be written (a read-only mount, or no write permission)")
        }
        return held
    }

    /// `heads/`, held open (made when missing): where this ledger's signed heads are written.
    package func headsDirectory() throws -> DirectoryHandle {
        try heldDirectories().directory("heads", fileSystem: fileSystem)
    }

    /// `device`'s signed head here (nil: none), read through `heads/` held open when the ledger is writable.
    package func readHead(of device: String) throws -> SignedHead? {
        guard let held else { return try SignedHead.read(in: directory, device: device) }
        guard let heads = try held.existingDirectory("heads") else { return nil }
        return try SignedHead.read(from: heads, device: device)
    }

    /// This device's whole file, read through `ledger/` held open.
    package func readOwnFile() throws -> [UInt8] {
        guard let held else { return try fileSystem.readFile(path(forDevice: device)) }
        return try fileSystem.readFile(device + ".jsonl", in: held.ledger, limit: Int.max)
    }

    /// Every device file, by device.
    public var devicePaths: [String: String] { files.mapValues(\.path) }

    /// The size read of each device file, by file name.
    var loadedFiles: [String: Int64] {
        Dictionary(
            files.values.map { (Files.lastComponent(of: $0.path), $0.size) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether this device's file carries MACs.
    public var isSigned: Bool { files[device]?.isSigned ?? (authenticator != nil) }

    /// The last sequence number of `device`'s file (``head(of:)`` without making the MAC's text).
    package func lastSequence(of device: String) -> Int64? { files[device]?.lastSequence }

    /// The last sequence number and MAC of `device`'s file.
    public func head(of device: String) -> (sequence: Int64, mac: String?)? {
        files[device].map { ($0.lastSequence, $0.lastMAC?.text) }
    }

    // MARK: reading

    /// The last entry read from `device`'s file.
    public func lastEntry(of device: String) -> LedgerEntry? {
        guard let sequence = files[device]?.lastSequence else { return nil }
        return entry(device: device, sequence: sequence)
    }

    /// `device`'s entry `sequence`, as read (the newest first: a head is near the end).
    package func entry(device: String, sequence: Int64) -> LedgerEntry? {
        state.entry(device: device, sequence: sequence)
    }

    /// The entry that counts for `id`.
    public func entry(id: String) -> LedgerEntry? { state.entry(id: id) }

    /// The entries that count for store transaction `reference` after its top-up, on every device read here:
    /// reversals, and the top-ups that refer to one (a reversal given back), in the order read.
    public func refundSteps(reference: String) -> [LedgerEntry] { state.refundSteps(reference: reference) }

    /// Positions in ``entries`` of the entries that count, one per id, in the order read.
    var countedIndices: [UInt32] { state.countedPositions }

    /// Positions in ``entries`` of the distinct entries (one per id), in display order: the opening that
    /// counts first, then time, then device, then sequence (see `DisplayOrder`). (Nothing is copied: a million entries need not be, to be shown.)
    public var displayOrder: [Int] {
        DisplayOrder.sorted(state.entries, positions: state.countedPositions)
    }

    /// The distinct entries (one per id), in display order (the opening first; see `DisplayOrder`).
    public var distinctEntries: [LedgerEntry] {
        let entries = state.entries
        return displayOrder.map { entries[$0] }
    }

    /// The entries that count, one per id, in no particular order.
    public var distinctEntriesUnordered: some Sequence<LedgerEntry> {
        let entries = state.entries
        return state.countedPositions.lazy.map { entries[Int($0)] }
    }

    /// Re-reads what other processes appended since the last look.
    public func refresh() throws {
        try withLock { try refreshLocked() }
    }

    // MARK: the lock

    /// Runs `body` holding the exclusive lock on `ledger/.lock`: one `flock` for a whole change (re-read, checks,
    /// append, head and checkpoint; on a descriptor kept open between changes, see ``KeptFileLock``), none more
    /// when this ledger holds it already (inside
    /// ``openSigned(directory:clock:ids:fileSystem:whileLocked:)``). The `*Locked` methods must run inside it.
    package func withLock<T>(_ body: () throws -> T) throws -> T {
        if holdsLock { return try body() }
        if isReadOnly {
            // The lock file opened for reading (the lock writers take), or the directory when none is there.
            let lock = try FileLock(readingPath: lockPath)
            holdsLock = true
            defer {
                holdsLock = false
                lock.unlock()
            }
            return try body()
        }
        try writerLock.lock()
        holdsLock = true
        defer {
            holdsLock = false
            writerLock.unlock()
        }
        return try body()
    }

    /// Reads this device's id and every device file; makes the ledger (its opening entry) when there is none and
    /// `create` allows.
    func openLocked(create: Bool, openingCredit: MicroCredits) throws {
        if isReadOnly {
            note(.readOnly(directory: directory))
        } else {
            LedgerDirectory.keepLocked(directory, held: held)
        }
        // A link, a directory or a FIFO at `device` is refused (a missing one is a new ledger).
        if let saved = try LedgerDirectory.deviceID(in: directory) { device = saved }
        try refreshLocked()
        // A device file without one whole entry (the first write was interrupted) is no ledger yet: make it again.
        // A device that joined an account (``AccountSync/join(directory:account:carrying:ids:fileSystem:)``) has the account's
        // entries and none of its own yet, and writes no opening: its file is made by its first append.
        if !device.isEmpty && (files[device]?.lines ?? 0) == 0 && !state.entries.isEmpty {
            if files[device] == nil { files[device] = DeviceFile(path: path(forDevice: device)) }
        } else if device.isEmpty || (files[device]?.lines ?? 0) == 0 {
            if isReadOnly && create {
                throw LedgerError.invalid(
                    "there is no ledger in \(directory), and none can be made there: the directory cannot be written")
            }
            guard create else { throw LedgerError.invalid("there is no ledger in \(directory)") }
            try createLocked(openingCredit: openingCredit)
            wasCreated = true
        }
    }

    private func createLocked(openingCredit: MicroCredits) throws {
        if device.isEmpty { device = ids.makeID() }
        // Written (again) and synced before a ledger file names it: an id read back from the page cache of a process
        // killed before it synced would otherwise be lost with the power, leaving this device's file orphaned.
        try fileSystem.replaceAtomically(
            Files.lastComponent(of: devicePath), in: try heldDirectories().data,
            with: Array((device + "\n").utf8), mode: 0o600)
        let opening = EntryDraft(
            id: EntryDraft.openingID, kind: .opening, quantity: 1, amount: openingCredit, text: "Starting credit")
        files[device] = DeviceFile(path: path(forDevice: device), isSigned: authenticator != nil)
        _ = try appendLocked([opening], creating: true)
    }

    // MARK: writing

    /// What an append did.
    public enum AppendOutcome: Equatable, Sendable {
        /// The entry was written.
        case appended(LedgerEntry)
        /// An entry with this id and the same content was already there: nothing was written.
        case alreadyRecorded(LedgerEntry)

        public var entry: LedgerEntry {
            switch self {
            case .appended(let entry), .alreadyRecorded(let entry): return entry
            }
        }
    }

    /// Appends one entry durably. An existing id with the same content is a no-op that says so; with other
    /// content it is a conflict and nothing is written.
    @discardableResult
    public func append(_ draft: EntryDraft) throws -> AppendOutcome {
        try appendBatch([draft])[0]
    }

    /// Appends several entries with one write and one fdatasync (group commit). All are checked first: a conflict
    /// anywhere writes nothing.
    @discardableResult
    public func appendBatch(_ drafts: [EntryDraft]) throws -> [AppendOutcome] {
        try withLock {
            try refreshLocked()
            return try appendLocked(drafts)
        }
    }

    /// Declines charge `id`: writes a refund entry giving its amount back. The charge stays. Declining twice, or
    /// declining something that is not a charge, throws and writes nothing.
    @discardableResult
    public func decline(_ id: String, reason: DeclineReason) throws -> LedgerEntry {
        try withLock {
            try refreshLocked()
            return try appendLocked([refund(declining: id, reason: reason)])[0].entry
        }
    }

    /// The refund that declines charge `id`, if it may be declined.
    private func refund(declining id: String, reason: DeclineReason) throws -> EntryDraft {
        guard let charge = entry(id: id) else { throw LedgerError.unknownEntry(id) }
        guard charge.kind == .charge else {
            throw LedgerError.cannotDecline(
                id: id, reason: "it is \(charge.kind.withArticle), and only a charge can be declined")
        }
        let refundID = EntryDraft.refundID(forCharge: id)
        if let refund = entry(id: refundID) {
            throw LedgerError.cannotDecline(
                id: id, reason: "it was already declined on \(refund.time.shortDisplay) UTC")
        }
        return EntryDraft(
            id: refundID, kind: .refund, feature: charge.feature, subject: charge.subject, quantity: charge.quantity,
            amount: try charge.amount.negated(), refersTo: id, reason: reason.key, text: reason.text)
    }

    /// Checks `drafts`, appends the new ones durably to this device's file, counts them, then keeps the signed head
    /// and the checkpoint up (and tells the observers). `creating`: the opening entry of a new device file. `times`:
    /// each draft's time, when it is not now (entries written again as they were made, after a restore).
    package func appendLocked(_ drafts: [EntryDraft], creating: Bool = false, times: [Timestamp]? = nil) throws
        -> [AppendOutcome]
    {
        if isReadOnly {
            throw LedgerError.invalid(
                "\(directory) cannot be written (a read-only mount, or no write permission): nothing was written")
        }
        guard var file = files[device] else { throw LedgerError.invalid("this device has no ledger file") }
        // A joined device's file does not exist until its first entry.
        let makesFile = creating || file.size == 0
        if file.isSigned == nil && file.lines == 0 { file.isSigned = authenticator != nil }
        let batch = try encode(drafts, onto: &file, creating: creating, times: times)
        guard !batch.bytes.isEmpty else { return batch.outcomes }
        try writer.appendDurably(batch.bytes, to: file.path, creating: makesFile, lostTrack: rereadLocked)
        file.size += Int64(batch.bytes.count)
        files[device] = file
        for entry in batch.written { noteAll(state.add(entry, file: file.path)) }
        // The entries are durable and acknowledged from here on: what fails after this is reported, never thrown, or
        // a caller retrying a "failed" charge would charge it twice.
        keepUpLocked(after: batch.written, madeFile: makesFile)
        return batch.outcomes
    }

    /// What a batch of drafts comes to: each one's outcome, the entries to write and their lines' bytes.
    private struct Batch {
        var outcomes: [AppendOutcome] = []
        var written: [LedgerEntry] = []
        var bytes: [UInt8] = []
    }

    /// The rules of an append: an id already recorded with the same content is not written again, with other
    /// content it is a conflict (and nothing of the batch is written); each new entry takes the next sequence,
    /// the running balance, and in a signed file the MAC before it as `prev` and its own MAC. `file` is advanced
    /// past the new entries.
    private func encode(
        _ drafts: [EntryDraft], onto file: inout DeviceFile, creating: Bool, times: [Timestamp]? = nil
    ) throws -> Batch {
        let signer = file.isSigned == true ? authenticator : nil
        if file.isSigned == true && signer == nil {
            throw LedgerError.invalid("\(file.path) is a signed ledger but no ledger key was given")
        }
        var batch = Batch()
        batch.outcomes.reserveCapacity(drafts.count)
        batch.written.reserveCapacity(drafts.count)
        batch.bytes.reserveCapacity(drafts.count * 360)
        // This batch's entries so far, by id (positions in `batch.written`).
        var pending = EntryIDIndex()
        var running = balance
        let now = clock.now()
        for (index, draft) in drafts.enumerated() {
            let hash = EntryIDIndex.hash(draft.id)
            let earlier = pending.find(hash: hash) { batch.written[$0].hasID(draft.id) }.map { batch.written[$0] }
            // A new device file starts with its opening entry even when another device's file here has it already
            // (it counts once): without a first line the file would never be made.
            if let existing = creating ? nil : entry(id: draft.id) ?? earlier {
                let probe = draft.entry(device: device, sequence: 0, time: now, balanceAfter: .zero)
                guard existing.hasSameContent(as: probe) else {
                    throw LedgerError.conflict(
                        id: draft.id, existing: existing.contentSummary, attempted: probe.contentSummary)
                }
                batch.outcomes.append(.alreadyRecorded(existing))
                continue
            }
            // One store transaction backs at most one credit, whatever the id the top-up is recorded under.
            if draft.kind == .topup, let reference = draft.reference, draft.refersTo == nil,
                let credited = state.topUp(reference: reference)
                    ?? batch.written.last(where: {
                        $0.kind == .topup && $0.reference == reference && $0.refersTo == nil
                    }),
                credited.id != draft.id
            {
                throw LedgerError.invalid(
                    "store transaction \(reference) is already credited by top-up \(credited.id); one store "
                        + "transaction backs at most one credit, so \(draft.id) was not written (nothing was written)")
            }
            // (An opening another device's file already counts does not count again.)
            if !creating || entry(id: draft.id) == nil { running = try running.adding(draft.amount) }
            var entry = draft.entry(
                device: device, sequence: file.lastSequence + 1, time: times?[index] ?? now, balanceAfter: running)
            entry.prevField = signer == nil ? nil : (file.lastMAC ?? .digest(.zero))
            // The line is made in place in the batch's bytes: the body, its MAC, the end.
            let bodyStart = batch.bytes.count
            EntryCodec.appendBody(of: entry, to: &batch.bytes)
            if let signer {
                let code = signer.authenticationCode(for: Array(batch.bytes[bodyStart...]))
                entry.macField = ChainDigest(bytes: code).map(ChainField.digest) ?? .text(Hex.encode(code))
            }
            EntryCodec.appendLineEnd(macField: entry.macField, to: &batch.bytes)
            file.lastSequence = entry.sequence
            file.lastMAC = entry.macField
            file.lines += 1
            _ = pending.insert(batch.written.count, hash: hash) { _ in false }
            batch.written.append(entry)
            batch.outcomes.append(.appended(entry))
        }
        return batch
    }

    /// What follows a durable append to this device's file, in order and under the same lock: the signed head,
    /// the checkpoint, then the observers. None of it throws: a failure is a notice.
    private func keepUpLocked(after written: [LedgerEntry], madeFile: Bool) {
        if let last = written.last, headUpkeep != nil, last.macField != nil {
            do {
                try headUpkeep?.keep(after: last, madeFile: madeFile, in: self)
            } catch {
                note(.followUpFailed(id: last.id, reason: "\(error)"))
            }
        }
        if keepsCheckpoint { LedgerCheckpoint.writeLocked(for: self) }
        for observer in observers {
            for entry in written {
                do {
                    try observer.ledger(self, didAppend: entry)
                } catch {
                    note(.followUpFailed(id: entry.id, reason: "\(error)"))
                }
            }
        }
    }

    /// Makes this device's file as read durable, data and directory entry, before a signed head vouches for it.
    func syncOwnFile() throws {
        try writer.syncFile(path(forDevice: device))
    }

    func note(_ notice: LedgerNotice) {
        notices.append(notice)
        onNotice?(notice)
    }

    func noteAll(_ found: [LedgerNotice]) {
        for notice in found { note(notice) }
    }
}
