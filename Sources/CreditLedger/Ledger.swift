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
    /// Signs new entries when this device's file is signed.
    public var authenticator: (any EntryAuthenticator)?
    /// Told after each durable append to this device's file.
    public var observers: [any AppendObserver] = []

    /// Every entry of every device file, in the order read.
    public private(set) var entries: [LedgerEntry] = []
    /// What loading found and did (torn tails moved aside, conflicting duplicates).
    public private(set) var notices: [LedgerNotice] = []
    /// Whether this open made a new ledger.
    public private(set) var wasCreated = false
    /// The balance: the sum of amounts over distinct ids.
    public private(set) var balance: MicroCredits = .zero
    /// Index into `entries` of the entry that counts for each id.
    private var counted: [String: Int] = [:]
    private var files: [String: DeviceFile] = [:]
    private var appendDescriptor: Int32 = -1

    struct DeviceFile {
        var path: String
        var size: Int64 = 0
        var lines = 0
        var lastSequence: Int64 = 0
        var lastMAC: String?
        var isSigned: Bool?
    }

    /// Opens the ledger in `directory`, creating it (with its opening credit) if there is none. `authenticator`
    /// signs a new ledger's entries; an existing unsigned ledger stays unsigned until upgraded.
    public init(
        directory: String, clock: any LedgerClock = SystemClock(), ids: any IDSource = RandomIDs(),
        authenticator: (any EntryAuthenticator)? = nil, openingCredit: MicroCredits = Ledger.defaultOpeningCredit,
        create: Bool = true
    ) throws {
        self.directory = directory
        self.clock = clock
        self.ids = ids
        self.authenticator = authenticator
        try POSIXFile.makeDirectories(ledgerDirectory)
        let lock = try DirectoryLock(path: lockPath)
        defer { lock.unlock() }
        if let saved = try? POSIXFile.readAll(devicePath), let name = String(validating: saved, as: UTF8.self) {
            device = name.trimmingWhitespace
        }
        try refreshLocked()
        if device.isEmpty || files[device] == nil {
            guard create else { throw LedgerError.invalid("there is no ledger in \(directory)") }
            try createLocked(openingCredit: openingCredit)
            wasCreated = true
        }
    }

    deinit {
        if appendDescriptor >= 0 { close(appendDescriptor) }
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

    /// Whether this device's file carries MACs.
    public var isSigned: Bool { files[device]?.isSigned ?? (authenticator != nil) }

    /// The last sequence number and MAC of `device`'s file.
    public func head(of device: String) -> (sequence: Int64, mac: String?)? {
        files[device].map { ($0.lastSequence, $0.lastMAC) }
    }

    // MARK: reading

    /// The last entry read from `device`'s file.
    public func lastEntry(of device: String) -> LedgerEntry? {
        guard let sequence = files[device]?.lastSequence else { return nil }
        return entries.last { $0.device == device && $0.sequence == sequence }
    }

    /// The entry that counts for `id`.
    public func entry(id: String) -> LedgerEntry? { counted[id].map { entries[$0] } }

    /// Indices into ``entries`` of the entries that count, one per id.
    var countedIndices: Dictionary<String, Int>.Values { counted.values }

    /// The distinct entries (one per id), in display order: time, then device, then sequence.
    public var distinctEntries: [LedgerEntry] {
        counted.values.map { entries[$0] }.sorted {
            ($0.time, $0.device, $0.sequence) < ($1.time, $1.device, $1.sequence)
        }
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
            throw LedgerError.cannotDecline(id: id, reason: "it is a \(charge.kind.rawValue), and only a charge can be declined")
        }
        let refundID = EntryDraft.refundID(forCharge: id)
        if let refund = entry(id: refundID) {
            throw LedgerError.cannotDecline(id: id, reason: "it was already declined on \(refund.time.shortDisplay) UTC")
        }
        let draft = EntryDraft(
            id: refundID, kind: .refund, feature: charge.feature, subject: charge.subject, quantity: charge.quantity,
            amount: try charge.amount.negated(), refersTo: id, reason: reason.key, text: reason.text)
        return try appendLocked([draft])[0].entry
    }

    // MARK: internals

    private func createLocked(openingCredit: MicroCredits) throws {
        if device.isEmpty {
            device = ids.makeID()
            try POSIXFile.replaceAtomically(devicePath, with: Array((device + "\n").utf8), mode: 0o600)
        }
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
        var pending: [String: LedgerEntry] = [:]
        var written: [LedgerEntry] = []
        var bytes: [UInt8] = []
        var running = balance
        let now = clock.now()
        for draft in drafts {
            let probe = draft.entry(device: device, sequence: 0, time: now, balanceAfter: .zero)
            if let existing = entry(id: draft.id) ?? pending[draft.id] {
                guard existing.hasSameContent(as: probe) else {
                    throw LedgerError.conflict(id: draft.id, existing: existing.contentSummary, attempted: probe.contentSummary)
                }
                outcomes.append(.alreadyRecorded(existing))
                continue
            }
            running = try running.adding(draft.amount)
            var entry = draft.entry(device: device, sequence: file.lastSequence + 1, time: now, balanceAfter: running)
            entry.prev = signer == nil ? nil : (file.lastMAC ?? String(repeating: "0", count: 64))
            let body = EntryCodec.body(of: entry)
            if let signer { entry.mac = hex(signer.authenticationCode(for: body)) }
            bytes.append(contentsOf: EntryCodec.line(body: body, mac: entry.mac))
            file.lastSequence = entry.sequence
            file.lastMAC = entry.mac
            file.lines += 1
            pending[entry.id] = entry
            written.append(entry)
            outcomes.append(.appended(entry))
        }
        guard !bytes.isEmpty else { return outcomes }
        try writeDurably(bytes, to: file.path, creating: creating)
        file.size += Int64(bytes.count)
        files[device] = file
        for entry in written { add(entry, file: file.path, line: 0) }
        for observer in observers {
            for entry in written { try observer.ledger(self, didAppend: entry) }
        }
        return outcomes
    }

    private func writeDurably(_ bytes: [UInt8], to path: String, creating: Bool) throws {
        if creating {
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw LedgerError.io(path: path, operation: "create", errno: errno) }
            appendDescriptor = fd
        } else if appendDescriptor < 0 {
            let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
            guard fd >= 0 else { throw LedgerError.io(path: path, operation: "open for append", errno: errno) }
            appendDescriptor = fd
        }
        let fd = appendDescriptor
        let before = lseek(fd, 0, SEEK_END)
        do {
            try FaultInjection.hit("append.before-write")
            try bytes.withUnsafeBytes { raw in
                if FaultInjection.isActive("append.mid-line") {
                    try POSIXFile.writeAll(fd: fd, UnsafeRawBufferPointer(rebasing: raw[0..<(raw.count / 2)]), path: path)
                    try FaultInjection.hit("append.mid-line")
                }
                try POSIXFile.writeAll(fd: fd, raw, path: path)
            }
        } catch {
            // No partial line is left behind: cut back to where this append started.
            if before >= 0 { _ = ftruncate(fd, before) }
            throw error
        }
        try FaultInjection.hit("append.before-sync")
        do {
            try POSIXFile.syncData(fd: fd, path: path)
        } catch {
            // After a failed fsync the page cache cannot be trusted: drop the descriptor, re-read on next use.
            close(fd)
            appendDescriptor = -1
            files.removeAll()
            throw error
        }
        if creating { try POSIXFile.syncDirectory(path.parentPath) }
        try FaultInjection.hit("append.after-sync")
    }

    /// Appends `lines` (complete, newline-terminated, exactly as another device wrote them) to `device`'s file.
    func appendForeignLines(_ bytes: [UInt8], device other: String) throws {
        let path = path(forDevice: other)
        let creating = !POSIXFile.exists(path)
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | (creating ? O_CREAT | O_EXCL : 0), 0o600)
        guard fd >= 0 else { throw LedgerError.io(path: path, operation: "open for merge", errno: errno) }
        defer { close(fd) }
        let before = lseek(fd, 0, SEEK_END)
        do {
            try bytes.withUnsafeBytes { try POSIXFile.writeAll(fd: fd, $0, path: path) }
        } catch {
            if before >= 0 { _ = ftruncate(fd, before) }
            throw error
        }
        try POSIXFile.syncData(fd: fd, path: path)
        if creating { try POSIXFile.syncDirectory(ledgerDirectory) }
    }

    private func add(_ entry: LedgerEntry, file: String, line: Int) {
        entries.append(entry)
        count(entries.count - 1, file: file, line: line)
    }

    /// Counts `entries[index]` unless its id is already counted.
    private func count(_ index: Int, file: String, line: Int) {
        let id = entries[index].id
        if let existing = counted.updateValue(index, forKey: id) {
            counted[id] = existing
            if !entries[existing].hasSameContent(as: entries[index]) {
                notices.append(.conflictingDuplicate(id: id, file: file, line: line))
            }
            return
        }
        // An overflowing ledger is reported by `credit verify`; here the balance stays put rather than trap.
        if let sum = try? balance.adding(entries[index].amount) { balance = sum }
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

    private func resetState() {
        entries = []
        counted = [:]
        files = [:]
        balance = .zero
        if appendDescriptor >= 0 {
            close(appendDescriptor)
            appendDescriptor = -1
        }
    }

    private func readNewLines(of file: inout DeviceFile, owner: String) throws {
        let path = file.path
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw LedgerError.io(path: path, operation: "open", errno: errno) }
        defer { close(fd) }
        let bytes = try POSIXFile.readAll(fd: fd, path: path, from: file.size)
        var parsed: [LedgerEntry] = []
        parsed.reserveCapacity(bytes.count / 256 + 1)
        var goodLength = 0
        var tornReason: String?
        var lineNumber = file.lines
        try bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            while start < buffer.count {
                guard let found = memchr(base + start, 0x0A, buffer.count - start) else {
                    tornReason = "no newline at the end"
                    return
                }
                let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                lineNumber += 1
                let line = UnsafeBufferPointer(start: base + start, count: newline - start)
                do throws(EntryParseError) {
                    parsed.append(try EntryCodec.parse(line))
                } catch {
                    if newline == buffer.count - 1 {
                        tornReason = error.reason
                        return
                    }
                    throw LedgerError.corruptLine(file: path, line: lineNumber, reason: error.reason)
                }
                start = newline + 1
                goodLength = start
            }
        }
        if tornReason != nil {
            try moveTornTail(Array(bytes[goodLength...]), of: path, fd: fd, keeping: file.size + Int64(goodLength), owner: owner)
        }
        guard let last = parsed.last else { return }
        if file.isSigned == nil { file.isSigned = parsed[0].mac != nil }
        file.lastMAC = last.mac
        let first = entries.count
        entries.reserveCapacity(first + parsed.count)
        counted.reserveCapacity(counted.count + parsed.count)
        entries.append(contentsOf: parsed)
        parsed = []
        for index in first..<entries.count {
            file.lines += 1
            file.lastSequence = max(file.lastSequence, entries[index].sequence)
            count(index, file: path, line: file.lines)
        }
        file.size += Int64(goodLength)
    }

    private func moveTornTail(_ tail: [UInt8], of path: String, fd: Int32, keeping length: Int64, owner: String) throws {
        try POSIXFile.makeDirectories(tornDirectory)
        let saved = tornDirectory + "/\(owner)-\(clock.now().milliseconds).tail"
        try POSIXFile.replaceAtomically(saved, with: tail, mode: 0o600)
        guard ftruncate(fd, off_t(length)) == 0 else { throw LedgerError.io(path: path, operation: "truncate torn tail", errno: errno) }
        guard fsync(fd) == 0 else { throw LedgerError.io(path: path, operation: "fsync", errno: errno) }
        notices.append(.tornTailMovedAside(file: path, bytes: tail.count, savedTo: saved))
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
