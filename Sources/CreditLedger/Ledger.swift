#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A user's credit ledger in a data directory: one append-only JSON-lines file per device under `ledger/`, this
/// device's id in `device`. The balance is the sum of the amounts over distinct entry ids, whatever the order.
///
/// Every change takes an exclusive lock on `ledger/.lock`, re-reads what other processes appended, checks, and
/// appends with one `write` and one `fdatasync` before it returns. Nothing is ever edited or removed.
public final class Ledger {
    /// The data directory.
    public let directory: String
    /// This device's id.
    public private(set) var device: String = ""
    /// The starting credit of a new ledger: £5.00, a placeholder.
    public static let defaultOpeningCredit = MicroCredits(5_000_000)

    let clock: any LedgerClock
    let ids: any IDSource
    /// Every change to a file goes through it (the reliability suites put a faulty or forgetful one underneath).
    public let fileSystem: any LedgerFileSystem
    /// Signs new entries when this device's file is signed.
    public var authenticator: (any EntryAuthenticator)?
    /// Told after each durable append to this device's file.
    public var observers: [any AppendObserver] = []

    /// Every entry of every device file, in the order read.
    public private(set) var entries: [LedgerEntry] = []
    /// What loading and appending found and did (torn tails moved aside, conflicting duplicates, a signed head not
    /// kept up), in order.
    public private(set) var notices: [LedgerNotice] = []
    /// Told of each notice as it is added (after opening: what the open found is in ``notices`` already).
    public var onNotice: ((LedgerNotice) -> Void)?
    /// Whether this open made a new ledger.
    public private(set) var wasCreated = false
    /// The balance: the sum of amounts over distinct ids.
    public private(set) var balance: MicroCredits = .zero
    /// Where in `entries` the entry that counts for each id is.
    private var idIndex = EntryIDIndex()
    /// The positions in `entries` of the entries that count, one per id, in the order read.
    private var countedPositions: [UInt32] = []
    /// What the sums read of each of them, in the same order (see ``EntryTally``).
    private(set) var tallies: [EntryTally] = []
    /// The numbers of the feature keys in `tallies`.
    private var featureCodes = FeatureCodes()
    /// The feature keys, by code - 1.
    var featureNames: [String] { featureCodes.names }
    private var files: [String: DeviceFile] = [:]
    private var appendDescriptor: Int32 = -1
    /// Whether this device's file, data and directory entry, is known to be on disk since `appendDescriptor` opened.
    private var fileIsDurable = false
    /// Directories this instance has made sure of: on disk, their own entries in their parents included.
    private var durableDirectories: Set<String> = []

    struct DeviceFile {
        var path: String
        var size: Int64 = 0
        var lines = 0
        var lastSequence: Int64 = 0
        var lastMAC: ChainField?
        var isSigned: Bool?
    }

    /// Opens the ledger in `directory`, creating it (with its opening credit) if there is none. `authenticator`
    /// signs a new ledger's entries; an existing unsigned ledger stays unsigned until upgraded. Every change to a
    /// file goes through `fileSystem`.
    public init(
        directory: String, clock: any LedgerClock = SystemClock(), ids: any IDSource = RandomIDs(),
        authenticator: (any EntryAuthenticator)? = nil, openingCredit: MicroCredits = Ledger.defaultOpeningCredit,
        create: Bool = true, fileSystem: any LedgerFileSystem = POSIXFileSystem()
    ) throws {
        self.directory = directory
        self.clock = clock
        self.ids = ids
        self.authenticator = authenticator
        self.fileSystem = fileSystem
        try fileSystem.makeDirectories(ledgerDirectory)
        let lock = try DirectoryLock(path: lockPath)
        defer { lock.unlock() }
        if let saved = try? POSIXFile.readAll(devicePath), let name = String(validating: saved, as: UTF8.self) {
            device = name.trimmingWhitespace
        }
        try refreshLocked()
        // A device file without one whole entry (the first write was interrupted) is no ledger yet: make it again.
        if device.isEmpty || (files[device]?.lines ?? 0) == 0 {
            guard create else { throw LedgerError.invalid("there is no ledger in \(directory)") }
            try createLocked(openingCredit: openingCredit)
            wasCreated = true
        }
    }

    deinit {
        if appendDescriptor >= 0 { fileSystem.close(appendDescriptor) }
    }

    // MARK: paths

    public var ledgerDirectory: String { directory + "/ledger" }
    var lockPath: String { ledgerDirectory + "/.lock" }
    var devicePath: String { directory + "/device" }
    var tornDirectory: String { directory + "/torn" }

    /// The file holding `device`'s entries.
    public func path(forDevice device: String) -> String { ledgerDirectory + "/" + device + ".jsonl" }

    /// Every device file, by device.
    public var devicePaths: [String: String] { files.mapValues(\.path) }

    /// The size read of each device file, by file name.
    var loadedFiles: [String: Int64] {
        Dictionary(files.values.map { ($0.path.lastPathComponent, $0.size) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether this device's file carries MACs.
    public var isSigned: Bool { files[device]?.isSigned ?? (authenticator != nil) }

    /// The last sequence number of `device`'s file (``head(of:)`` without making the MAC's text).
    func lastSequence(of device: String) -> Int64? { files[device]?.lastSequence }

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
    func entry(device: String, sequence: Int64) -> LedgerEntry? {
        entries.last { $0.sequence == sequence && $0.device == device }
    }

    /// The entry that counts for `id`.
    public func entry(id: String) -> LedgerEntry? {
        let hash = EntryIDIndex.hash(id)
        let position = entries.withUnsafeBufferPointer { list in idIndex.find(hash: hash) { list[$0].id == id } }
        return position.map { entries[$0] }
    }

    /// Positions in ``entries`` of the entries that count, one per id, in the order read.
    var countedIndices: [UInt32] { countedPositions }

    /// Positions in ``entries`` of the distinct entries (one per id), in display order: time, then device, then
    /// sequence. (Nothing is copied: a million entries need not be, to be shown.)
    public var displayOrder: [Int] {
        DisplayOrder.sorted(entries, positions: countedPositions)
    }

    /// The distinct entries (one per id), in display order: time, then device, then sequence.
    public var distinctEntries: [LedgerEntry] {
        displayOrder.map { entries[$0] }
    }

    /// Re-reads what other processes appended since the last look.
    public func refresh() throws {
        let lock = try DirectoryLock(path: lockPath)
        defer { lock.unlock() }
        try refreshLocked()
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
        let lock = try DirectoryLock(path: lockPath)
        defer { lock.unlock() }
        try refreshLocked()
        return try appendLocked(drafts)
    }

    /// Declines charge `id`: writes a refund entry giving its amount back. The charge stays. Declining twice, or
    /// declining something that is not a charge, throws and writes nothing.
    @discardableResult
    public func decline(_ id: String, reason: DeclineReason) throws -> LedgerEntry {
        let lock = try DirectoryLock(path: lockPath)
        defer { lock.unlock() }
        try refreshLocked()
        guard let charge = entry(id: id) else { throw LedgerError.unknownEntry(id) }
        guard charge.kind == .charge else {
            throw LedgerError.cannotDecline(
                id: id, reason: "it is a \(charge.kind.rawValue), and only a charge can be declined")
        }
        let refundID = EntryDraft.refundID(forCharge: id)
        if let refund = entry(id: refundID) {
            throw LedgerError.cannotDecline(
                id: id, reason: "it was already declined on \(refund.time.shortDisplay) UTC")
        }
        let draft = EntryDraft(
            id: refundID, kind: .refund, feature: charge.feature, subject: charge.subject, quantity: charge.quantity,
            amount: try charge.amount.negated(), refersTo: id, reason: reason.key, text: reason.text)
        return try appendLocked([draft])[0].entry
    }

    // MARK: internals

    private func createLocked(openingCredit: MicroCredits) throws {
        if device.isEmpty { device = ids.makeID() }
        // Written (again) and synced before a ledger file names it: an id read back from the page cache of a process
        // killed before it synced would otherwise be lost with the power, leaving this device's file orphaned.
        try fileSystem.replaceAtomically(devicePath, with: Array((device + "\n").utf8), mode: 0o600)
        let opening = EntryDraft(
            id: EntryDraft.openingID, kind: .opening, quantity: 1, amount: openingCredit, text: "Starting credit")
        files[device] = DeviceFile(path: path(forDevice: device), isSigned: authenticator != nil)
        _ = try appendLocked([opening], creating: true)
    }

    func appendLocked(_ drafts: [EntryDraft], creating: Bool = false) throws -> [AppendOutcome] {
        guard var file = files[device] else { throw LedgerError.invalid("this device has no ledger file") }
        let signer = file.isSigned == true ? authenticator : nil
        if file.isSigned == true && signer == nil {
            throw LedgerError.invalid("\(file.path) is a signed ledger but no ledger key was given")
        }
        var outcomes: [AppendOutcome] = []
        outcomes.reserveCapacity(drafts.count)
        // This batch's entries so far, by id (positions in `written`).
        var pending = EntryIDIndex()
        var written: [LedgerEntry] = []
        written.reserveCapacity(drafts.count)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(drafts.count * 360)
        var running = balance
        let now = clock.now()
        for draft in drafts {
            let hash = EntryIDIndex.hash(draft.id)
            let earlier = pending.find(hash: hash) { written[$0].id == draft.id }.map { written[$0] }
            // A new device file starts with its opening entry even when another device's file here has it already
            // (it counts once): without a first line the file would never be made.
            if let existing = creating ? nil : entry(id: draft.id) ?? earlier {
                let probe = draft.entry(device: device, sequence: 0, time: now, balanceAfter: .zero)
                guard existing.hasSameContent(as: probe) else {
                    throw LedgerError.conflict(
                        id: draft.id, existing: existing.contentSummary, attempted: probe.contentSummary)
                }
                outcomes.append(.alreadyRecorded(existing))
                continue
            }
            // (An opening another device's file already counts does not count again.)
            if !creating || entry(id: draft.id) == nil { running = try running.adding(draft.amount) }
            var entry = draft.entry(device: device, sequence: file.lastSequence + 1, time: now, balanceAfter: running)
            entry.prevField = signer == nil ? nil : (file.lastMAC ?? .digest(.zero))
            // The line is made in place in the batch's bytes: the body, its MAC, the end.
            let bodyStart = bytes.count
            EntryCodec.appendBody(of: entry, to: &bytes)
            if let signer {
                let code = signer.authenticationCode(for: Array(bytes[bodyStart...]))
                entry.macField = ChainDigest(bytes: code).map(ChainField.digest) ?? .text(hex(code))
            }
            EntryCodec.appendLineEnd(macField: entry.macField, to: &bytes)
            file.lastSequence = entry.sequence
            file.lastMAC = entry.macField
            file.lines += 1
            _ = pending.insert(written.count, hash: hash) { _ in false }
            written.append(entry)
            outcomes.append(.appended(entry))
        }
        guard !bytes.isEmpty else { return outcomes }
        try writeDurably(bytes, to: file.path, creating: creating)
        file.size += Int64(bytes.count)
        files[device] = file
        for entry in written { add(entry, file: file.path, line: 0) }
        // The entries are durable and acknowledged from here on: what fails after this is reported, never thrown, or
        // a caller retrying a "failed" charge would charge it twice.
        for observer in observers {
            for entry in written {
                do {
                    try observer.ledger(self, didAppend: entry)
                } catch {
                    note(.followUpFailed(id: entry.id, reason: "\(error)"))
                }
            }
        }
        return outcomes
    }

    private func writeDurably(_ bytes: [UInt8], to path: String, creating: Bool) throws {
        if creating || appendDescriptor < 0 {
            if appendDescriptor >= 0 { fileSystem.close(appendDescriptor) }
            appendDescriptor = -1
            // Creating: the file may be there already, empty, left by a first write that never completed.
            appendDescriptor = try fileSystem.open(path, creating ? .createOrAppend : .append, permissions: 0o600)
            fileIsDurable = false
        }
        let fd = appendDescriptor
        let before = try fileSystem.size(fd, path: path)
        if creating && before != 0 {
            throw LedgerError.invalid("\(path) already holds \(before) bytes; a new ledger is not written over it")
        }
        do {
            try FaultInjection.hit("append.before-write")
            try bytes.withUnsafeBytes { raw in
                var start = 0
                if FaultInjection.isActive("append.mid-line") {
                    start = raw.count / 2
                    try fileSystem.writeAll(fd, UnsafeRawBufferPointer(rebasing: raw[..<start]), path: path)
                }
                try FaultInjection.hit("append.mid-line")
                try fileSystem.writeAll(fd, UnsafeRawBufferPointer(rebasing: raw[start...]), path: path)
            }
        } catch {
            // No partial line is left behind: cut back to where this append started. If even that fails, forget the
            // descriptor and everything read, so the next refresh finds the partial line at the end and sets it aside
            // before anything is appended after it.
            do { try fileSystem.truncate(fd, to: before, path: path) } catch { rereadLocked() }
            throw error
        }
        try FaultInjection.hit("append.before-sync")
        do {
            try fileSystem.syncData(fd, path: path)
            // A new file is durable only once its directory entry is. Whoever made it may have been killed before
            // syncing its directory, so the first append of each open syncs it too (once; then it is known).
            if creating || !fileIsDurable {
                try fileSystem.syncDirectory(path.parentPath)
                if creating { try ensureDurableDirectory(ledgerDirectory) }
                fileIsDurable = true
            }
        } catch {
            // After a failed fsync the page cache cannot be trusted: the kernel may have dropped the pages, or write
            // them later. The entry is not acknowledged, so it must not count either: cut it off, drop the
            // descriptor and everything read, and re-derive the state from the file (never retry the fsync and
            // carry on).
            try? fileSystem.truncate(fd, to: before, path: path)
            rereadLocked()
            throw error
        }
        try FaultInjection.hit("append.after-sync")
    }

    /// Makes `path` durable, its entries and its own entry in its parent, once per instance: whoever made it (or
    /// renamed a file into it) may have been killed before syncing, and what is in it would vanish with the power.
    func ensureDurableDirectory(_ path: String) throws {
        guard !durableDirectories.contains(path) else { return }
        if POSIXFile.exists(path) {
            try fileSystem.syncDirectory(path)
            try fileSystem.syncDirectory(path.parentPath)
        } else {
            try fileSystem.makeDirectories(path)
        }
        durableDirectories.insert(path)
    }

    /// Makes this device's file as read durable, data and directory entry, before something outside it (a signed
    /// head) vouches for what it holds: a process killed before its fsync leaves lines that are only in the page
    /// cache, which a power loss would take away from under the head.
    func syncOwnFile() throws {
        let path = path(forDevice: device)
        let fd = try fileSystem.open(path, .append, permissions: 0o600)
        defer { fileSystem.close(fd) }
        try fileSystem.syncData(fd, path: path)
        try fileSystem.syncDirectory(ledgerDirectory)
    }

    /// Drops the descriptor and everything read, and reads every file again from the start (the failure that got
    /// here is what the caller reports; one that recurs here shows on the next call). Must hold the lock.
    private func rereadLocked() {
        resetState()
        try? refreshLocked()
    }

    /// Appends `lines` (complete, newline-terminated, exactly as another device wrote them) to `device`'s file.
    func appendForeignLines(_ bytes: [UInt8], device other: String) throws {
        let path = path(forDevice: other)
        let creating = !POSIXFile.exists(path)
        let fd = try fileSystem.open(path, creating ? .createOrAppend : .append, permissions: 0o600)
        defer { fileSystem.close(fd) }
        let before = try fileSystem.size(fd, path: path)
        do {
            try bytes.withUnsafeBytes { raw in
                var start = 0
                if FaultInjection.isActive("merge.mid-write") {
                    start = raw.count / 2
                    try fileSystem.writeAll(fd, UnsafeRawBufferPointer(rebasing: raw[..<start]), path: path)
                }
                try FaultInjection.hit("merge.mid-write")
                try fileSystem.writeAll(fd, UnsafeRawBufferPointer(rebasing: raw[start...]), path: path)
            }
        } catch {
            do { try fileSystem.truncate(fd, to: before, path: path) } catch { rereadLocked() }
            throw error
        }
        try FaultInjection.hit("merge.before-sync")
        do {
            try fileSystem.syncData(fd, path: path)
            if creating { try fileSystem.syncDirectory(ledgerDirectory) }
        } catch {
            try? fileSystem.truncate(fd, to: before, path: path)
            rereadLocked()
            throw error
        }
    }

    func note(_ notice: LedgerNotice) {
        notices.append(notice)
        onNotice?(notice)
    }

    private func add(_ entry: LedgerEntry, file: String, line: Int) {
        entries.append(entry)
        count(from: entries.count - 1, file: file, firstLine: line)
    }

    /// Counts `entries[first...]` (read from `file`, the first on line `firstLine`), each unless its id is already
    /// counted. The state is taken out of the object for the loop, so that the million accesses of a load are
    /// plain local ones.
    private func count(from first: Int, file: String, firstLine: Int, hashes known: [UInt64]? = nil) {
        var index = idIndex
        var positions = countedPositions
        var counted = tallies
        var codes = featureCodes
        var sum = balance
        idIndex = EntryIDIndex()
        countedPositions = []
        tallies = []
        defer {
            idIndex = index
            countedPositions = positions
            tallies = counted
            featureCodes = codes
            balance = sum
        }
        if entries.count - first > 1 {
            // A load: room for all at once. (One append at a time grows as arrays do.)
            index.reserve(index.count + entries.count - first)
            positions.reserveCapacity(positions.count + entries.count - first)
            counted.reserveCapacity(counted.count + entries.count - first)
        }
        entries.withUnsafeBufferPointer { list in
            // In groups: the hashes first, touching each one's slot so the table's cache misses overlap, then
            // the inserts, which find their slots in the cache.
            var hashes:
                (
                    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
                ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var touched: UInt64 = 0
            withUnsafeMutableBytes(of: &hashes) { raw in
                let group = raw.bindMemory(to: UInt64.self)
                var start = first
                while start < list.count {
                    let count = Swift.min(group.count, list.count - start)
                    for offset in 0..<count {
                        let hash = known?[start + offset - first] ?? EntryIDIndex.hash(list[start + offset].id)
                        group[offset] = hash
                        touched &+= index.slotValue(hash: hash)
                    }
                    for offset in 0..<count {
                        let position = start + offset
                        if let existing = index.insert(
                            position, hash: group[offset], matches: { list[$0].id == list[position].id })
                        {
                            if !list[existing].hasSameContent(as: list[position]) {
                                note(
                                    .conflictingDuplicate(
                                        id: list[position].id, file: file,
                                        line: firstLine == 0 ? 0 : firstLine + position - first))
                            }
                            continue
                        }
                        positions.append(UInt32(position))
                        counted.append(
                            EntryTally(
                                amount: list[position].amount.rawValue, time: list[position].time.milliseconds,
                                feature: codes.code(for: list[position].feature), kind: list[position].kind))
                        // An overflowing ledger is reported by `credit verify`; here the balance stays put rather
                        // than trap.
                        let (total, overflow) = sum.rawValue.addingReportingOverflow(list[position].amount.rawValue)
                        if !overflow { sum = MicroCredits(total) }
                    }
                    start += count
                }
            }
            if touched == 1 { index.noteTouched() }  // keeps the touching loads
        }
    }

    /// Reads every device file's new bytes. Must hold the lock.
    func refreshLocked() throws {
        let names = try POSIXFile.list(ledgerDirectory).filter { $0.hasSuffix(".jsonl") }
        for name in names {
            let owner = String(name.dropLast(6))
            let path = ledgerDirectory + "/" + name
            let size = try POSIXFile.size(path)
            var file = files[owner] ?? DeviceFile(path: path)
            if size == file.size { continue }
            if size < file.size {
                // The file shrank under us (restored or cut by hand): forget everything and read it all again.
                resetState()
                return try refreshLocked()
            }
            try readNewLines(of: &file, owner: owner)
            files[owner] = file
        }
    }

    /// Forgets everything read, so the next refresh reads every file from the start. Must hold the lock.
    func resetState() {
        entries = []
        idIndex.removeAll()
        countedPositions = []
        tallies = []
        featureCodes = FeatureCodes()
        files = [:]
        balance = .zero
        if appendDescriptor >= 0 {
            fileSystem.close(appendDescriptor)
            appendDescriptor = -1
        }
    }

    /// Reads `file` from where the last read stopped, a few megabytes at a time, each line parsed straight into
    /// ``entries``. A bad last line is a torn tail, set aside; a bad line with lines after it is corruption: nothing
    /// read from this file counts, and the error names the file and line.
    private func readNewLines(of file: inout DeviceFile, owner: String) throws {
        let path = file.path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw LedgerError.io(path: path, operation: "open", errno: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw LedgerError.io(path: path, operation: "fstat", errno: errno) }
        let end = Int64(info.st_size)
        guard end > file.size else { return }
        let parts = ParallelLines.partCount(for: end - file.size)
        if entries.isEmpty && parts > 1 {
            return try readInParallel(of: &file, owner: owner, fd: fd, end: end, parts: parts)
        }
        // Parsed into a local array (moved out of the object, so not copied and without an access check per line).
        var list = entries
        entries = []
        let first = list.count
        // Room for the lines expected (only the pages used become memory), so the array is never copied to grow.
        list.reserveCapacity(first + Int((end - file.size) / 160) + 1)
        var context = LineReadContext(device: owner)
        var tornReason: String?
        var lineNumber = file.lines
        let outcome: LineChunks.Outcome
        do {
            outcome = try LineChunks.read(fd: fd, path: path, from: file.size, to: end) { line, after in
                lineNumber += 1
                do throws(EntryParseError) {
                    list.append(try EntryCodec.parse(line, context: &context))
                } catch {
                    // Torn: the bad line is the last, or nothing after it reads as an entry either (a power loss can
                    // leave any bytes, newlines too, where a file grew); never when a whole entry follows it.
                    if after == end || !Ledger.anyEntry(fd: fd, from: after, to: end) {
                        tornReason = error.reason
                        return false
                    }
                    throw LedgerError.corruptLine(file: path, line: lineNumber, reason: error.reason)
                }
                return true
            }
            if outcome.unterminated { tornReason = "no newline at the end" }
            if tornReason != nil {
                let tail = try POSIXFile.readAll(fd: fd, path: path, from: outcome.consumed)
                try moveTornTail(tail, of: path, fd: fd, keeping: outcome.consumed, owner: owner)
            }
        } catch {
            list.removeSubrange(first...)
            entries = list
            throw error
        }
        entries = list
        list = []
        file.size = outcome.consumed
        guard entries.count > first else { return }
        if file.isSigned == nil { file.isSigned = entries[first].macField != nil }
        file.lastMAC = entries[entries.count - 1].macField
        file.lastSequence = entries.withUnsafeBufferPointer { list in
            list[first...].reduce(file.lastSequence) { max($0, $1.sequence) }
        }
        let firstLine = file.lines + 1
        file.lines += entries.count - first
        count(from: first, file: path, firstLine: firstLine)
    }

    /// Whether a whole line between `start` and `end` of the file reads as an entry.
    private static func anyEntry(fd: Int32, from start: Int64, to end: Int64) -> Bool {
        guard let rest = try? POSIXFile.readAll(fd: fd, path: "", from: start) else { return true }
        let lines = rest.prefix(Int(end - start)).split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        return lines.contains { (try? EntryCodec.parse(Array($0))) != nil }
    }

    /// ``readNewLines(of:owner:)`` for a large first read: the lines parsed on several threads, then put together
    /// in order, with exactly the outcome of reading them one after the other (the first bad line decides: the
    /// last line of the file is a torn tail, any other is corruption).
    private func readInParallel(of file: inout DeviceFile, owner: String, fd: Int32, end: Int64, parts: Int) throws {
        let path = file.path
        let outcome = try ParallelLines.parse(fd: fd, path: path, from: file.size, to: end, owner: owner, parts: parts)
        var tornReason: String?
        if let failure = outcome.failure {
            guard failure.lineEnd == end else {
                throw LedgerError.corruptLine(file: path, line: file.lines + failure.index + 1, reason: failure.reason)
            }
            tornReason = failure.reason
        } else if outcome.unterminated {
            tornReason = "no newline at the end"
        }
        if tornReason != nil {
            let tail = try POSIXFile.readAll(fd: fd, path: path, from: outcome.consumed)
            try moveTornTail(tail, of: path, fd: fd, keeping: outcome.consumed, owner: owner)
        }
        entries = outcome.entries
        file.size = outcome.consumed
        let total = entries.count
        guard total > 0 else { return }
        if file.isSigned == nil { file.isSigned = entries[0].macField != nil }
        file.lastMAC = entries[total - 1].macField
        file.lastSequence = entries.withUnsafeBufferPointer { list in
            list.reduce(file.lastSequence) { max($0, $1.sequence) }
        }
        let firstLine = file.lines + 1
        file.lines += total
        count(from: 0, file: path, firstLine: firstLine, hashes: outcome.hashes)
    }

    private func moveTornTail(_ tail: [UInt8], of path: String, fd: Int32, keeping length: Int64, owner: String) throws
    {
        try ensureDurableDirectory(tornDirectory)
        // Never over an earlier tail (a fixed clock, or two in one millisecond).
        let stem = tornDirectory + "/\(owner)-\(clock.now().milliseconds)"
        var saved = stem + ".tail"
        var copy = 1
        while POSIXFile.exists(saved) {
            copy += 1
            saved = stem + "-\(copy).tail"
        }
        try fileSystem.replaceAtomically(saved, with: tail, mode: 0o600)
        try FaultInjection.hit("torn.before-truncate")
        let writer = try fileSystem.open(path, .append, permissions: 0o600)
        defer { fileSystem.close(writer) }
        try fileSystem.truncate(writer, to: length, path: path)
        try fileSystem.sync(writer, path: path)
        note(.tornTailMovedAside(file: path, bytes: tail.count, savedTo: saved))
    }
}

extension String {
    var trimmingWhitespace: String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}

func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out = [UInt8]()
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0xF)])
    }
    return String(decoding: out, as: UTF8.self)
}
