import Signing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Ledger {
    /// Opens (or creates) a signed ledger: the owner's keys are made on first use, every new entry is chained with
    /// HMAC-SHA256, and this device's signed head is kept current. A ledger made before signing stays unsigned
    /// (``isSigned`` is false) until ``upgradeToSigned(keys:)``: never silently. Every change to a ledger file or
    /// head goes through `fileSystem`.
    public static func openSigned(
        directory: String, clock: any LedgerClock = SystemClock(),
        ids: any IDSource = RandomIDs(),
        fileSystem: any LedgerFileSystem = POSIXFileSystem()
    ) throws -> Ledger {
        let keys = try LedgerKeys.loadOrCreate(in: directory)
        let ledger = try Ledger(
            directory: directory, clock: clock, ids: ids, authenticator: try keys.makeAuthenticator(),
            fileSystem: fileSystem)
        ledger.observers.append(HeadKeeper(key: keys.headKey))
        ledger.observers.append(CheckpointKeeper())
        do {
            // Under the lock, on what is there now: another process appending writes its head under it too, so a
            // head written here never lands on top of a newer one, nor two writers' files collide.
            let lock = try DirectoryLock(path: ledger.lockPath)
            defer { lock.unlock() }
            try ledger.refreshLocked()
            if ledger.isSigned, let last = ledger.lastEntry(of: ledger.device), last.mac != nil {
                var head: SignedHead?
                var readable = true
                do {
                    head = try SignedHead.read(in: directory, device: ledger.device)
                } catch {
                    // Damaged or not a head at all: evidence for `credit verify`, and no reason to stop the app.
                    ledger.note(.headNotKept(reason: "\(error)"))
                    readable = false
                }
                // A new ledger gets its first head; a head left one behind by an interrupted write catches up. A
                // ledger of its opening entry alone and no head was being made when the process died before the
                // head: nothing can have been cut from it, so it gets its first head too. A missing head on any other
                // ledger is left for `credit verify` to report.
                let madeButNoHead = head == nil && last.sequence == 1 && last.kind == .opening
                let behind = head.map { $0.sequence < last.sequence } ?? false
                if !readable {
                    // Left as it is.
                } else if (ledger.wasCreated && head == nil) || madeButNoHead {
                    if !ledger.wasCreated { try ledger.syncOwnFile() }
                    try ledger.ensureDurableDirectory(directory + "/heads")
                    try SignedHead.make(for: last, key: keys.headKey).write(in: directory, fileSystem: fileSystem)
                } else if let head, head.sequence != last.sequence || head.mac != last.mac {
                    if let problem = ledger.headReplacementProblem(head, checkingSignatureWith: keys.headKey.publicKey)
                    {
                        ledger.note(.headNotKept(reason: problem))
                    } else if behind {
                        do {
                            try ledger.syncOwnFile()
                            try ledger.ensureDurableDirectory(directory + "/heads")
                            try SignedHead.make(for: last, key: keys.headKey).write(
                                in: directory, fileSystem: fileSystem)
                        } catch {
                            ledger.note(
                                .headNotKept(reason: "it could not be brought up to #\(last.sequence) (\(error))"))
                        }
                    }
                } else if !ledger.wasCreated && last.sequence == 1 {
                    // The first head may be one a killed process renamed into place and never synced: make it
                    // durable before anything is appended after it, or a power loss could leave entries and no head.
                    try ledger.ensureDurableDirectory(directory + "/heads")
                }
            }
        }
        // So that the next `credit balance` need not read every entry again.
        ledger.writeCheckpoint()
        return ledger
    }

    /// Why this device's signed head `head` (nil: there is none) must not be replaced by a newer one, or nil when
    /// it may. A head is replaced only while the file still holds the entry it signed: one that is missing, does
    /// not verify under `publicKey` (nil when the caller wrote it itself and so knows it), or that the file no
    /// longer bears out (entries cut off the end, an older copy restored, the file rewritten from some entry on) is
    /// what `credit verify` reports, and writing over it would erase the evidence.
    func headReplacementProblem(_ head: SignedHead?, checkingSignatureWith publicKey: P256PublicKey?) -> String? {
        guard let head else {
            return "there is no signed head for this device although its file has entries: it was removed"
        }
        guard head.device == device, publicKey.map(head.isValid(for:)) ?? true else {
            return "\(SignedHead.path(in: directory, device: device)) does not verify with the ledger's public key"
        }
        guard let last = lastSequence(of: device), head.sequence <= last else {
            return "the head says #\(head.sequence), beyond the file's last entry: entries were cut off the end, or an "
                + "older copy was restored"
        }
        guard let signed = entry(device: device, sequence: head.sequence), signed.mac == head.mac else {
            return
                "the file's #\(head.sequence) is not the entry the head signed: the file was rewritten from there, or "
                + "another copy was restored"
        }
        return nil
    }

    /// What an upgrade did.
    public struct UpgradeReport: Sendable, Equatable {
        public var entriesSigned: Int
        public var file: String
        public var backup: String
    }

    /// Signs this device's unsigned file: each entry is written again with the same content plus its `prev` and
    /// `mac`, into a new file that replaces the old atomically; the old file is kept beside it as a backup.
    public func upgradeToSigned(keys: LedgerKeys) throws -> UpgradeReport {
        let lock = try DirectoryLock(path: lockPath)
        defer { lock.unlock() }
        try refreshLocked()
        guard !isSigned else { throw LedgerError.invalid("the ledger is already signed; nothing to upgrade") }
        let path = path(forDevice: device)
        let own = entries.filter { $0.device == device }.sorted { $0.sequence < $1.sequence }
        let authenticator = try keys.makeAuthenticator()
        var bytes: [UInt8] = []
        var previous = String(repeating: "0", count: 64)
        var last: LedgerEntry?
        for var entry in own {
            entry.prev = previous
            let body = EntryCodec.body(of: entry)
            entry.mac = hex(authenticator.authenticationCode(for: body))
            bytes.append(contentsOf: EntryCodec.line(body: body, mac: entry.mac))
            previous = entry.mac!
            last = entry
        }
        let backup = path + ".unsigned-\(clock.now().milliseconds)"
        guard link(path, backup) == 0 else {
            throw LedgerError.io(path: backup, operation: "keep a backup", errno: errno)
        }
        try fileSystem.replaceAtomically(path, with: bytes, mode: 0o600)
        if let last { try SignedHead.make(for: last, key: keys.headKey).write(in: directory, fileSystem: fileSystem) }
        // The open descriptor and the offsets read so far belong to the old file, now the backup: read the new file
        // from the start, and carry on signing with its key and keeping its head.
        resetState()
        self.authenticator = authenticator
        if !observers.contains(where: { $0 is HeadKeeper }) { observers.append(HeadKeeper(key: keys.headKey)) }
        try refreshLocked()
        return UpgradeReport(entriesSigned: own.count, file: path, backup: backup)
    }

    /// Verifies this data directory's ledger files (or `files`), with its keys and heads.
    public func verify(files: [String]? = nil, receiptCheck: ((LedgerEntry) -> String?)?) throws -> VerificationReport {
        try Ledger.verify(
            directory: directory, files: files, requiringHeadOf: files == nil && isSigned ? device : nil,
            receiptCheck: receiptCheck)
    }

    /// Verifies the ledger files in `directory` (or `files`) with its keys and heads, without opening the ledger, so
    /// that a ledger with a damaged line, which will not open, can still be checked. `device`'s head must be there.
    public static func verify(
        directory: String, files: [String]? = nil, requiringHeadOf device: String?,
        receiptCheck: ((LedgerEntry) -> String?)?
    ) throws -> VerificationReport {
        let keys = try LedgerKeys.load(from: directory)
        let publicKey = keys.headKey.publicKey
        // Every device file there now, not only those an open ledger has read.
        let ledgerDirectory = directory + "/ledger"
        let paths =
            try files
            ?? POSIXFile.list(ledgerDirectory).filter { $0.hasSuffix(".jsonl") }.map { ledgerDirectory + "/" + $0 }
        var heads: [String: SignedHead] = [:]
        var unreadable: [VerificationProblem] = []
        var unreadableOwners: Set<String> = []
        let names = (try? POSIXFile.list(directory + "/heads")) ?? []
        for name in names where name.hasSuffix(".json") {
            let owner = String(name.dropLast(5))
            do {
                if let head = try SignedHead.read(in: directory, device: owner) { heads[owner] = head }
            } catch {
                // Damaged heads are reported like forged ones, and do not stop the other checks.
                unreadableOwners.insert(owner)
                unreadable.append(
                    VerificationProblem(
                        kind: .headInvalid, file: SignedHead.path(in: directory, device: owner), line: nil,
                        detail: "the signed head of \(owner) cannot be read (\(error))"))
            }
        }
        let required = Set(device.map { [$0] } ?? []).subtracting(unreadableOwners)
        let verifier = LedgerVerifier(macKey: keys.macKey, headPublicKey: publicKey, receiptCheck: receiptCheck)
        var report = try verifier.verify(files: paths, heads: heads, requireHeads: required)
        report.problems.append(contentsOf: unreadable)
        return report
    }
}
