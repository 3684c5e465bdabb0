import Clocks
import DurableFiles
import Platform
import Signing

extension Ledger {
    /// Opens (or creates) a signed ledger: the owner's keys are made on first use, every new entry is chained with
    /// HMAC-SHA256, and this device's signed head is kept current. A ledger made before signing stays unsigned
    /// (``isSigned`` is false) until ``upgradeToSigned(keys:)``: never silently. Every change to a ledger file or
    /// head goes through `fileSystem`.
    public static func openSigned(
        directory: String, clock: any LedgerClock = SystemClock(),
        ids: any IDSource = RandomIDs(),
        fileSystem: any FileSystem = SystemFileSystem()
    ) throws -> Ledger {
        try openSigned(directory: directory, clock: clock, ids: ids, fileSystem: fileSystem) { $0 }
    }

    /// Opens (or creates) a signed ledger as ``openSigned(directory:clock:ids:fileSystem:)`` does, and runs `body`
    /// with it under the same lock: a command that opens the ledger, changes it and exits takes the `flock` once.
    /// What `body` does through this ledger (appends, declines, a merge) runs under that lock without taking it
    /// again. Nothing else may take the lock of `directory` inside `body` (another ledger opened on it,
    /// ``checkpointedBalance(directory:)``): it would wait for ever.
    public static func openSigned<T>(
        directory: String, clock: any LedgerClock = SystemClock(), ids: any IDSource = RandomIDs(),
        fileSystem: any FileSystem = SystemFileSystem(), whileLocked body: (Ledger) throws -> T
    ) throws -> T {
        // Nothing is read through, or made in, a data directory that is a link, another user's, or others may write.
        try checkDataDirectory(directory)
        let keys =
            try cannotWrite(directory)
            ? readOnlyKeys(directory) : LedgerKeys.loadOrCreate(in: directory, fileSystem: fileSystem)
        let ledger = try Ledger(
            unopened: directory, clock: clock, ids: ids, authenticator: try keys.makeAuthenticator(),
            fileSystem: fileSystem)
        ledger.lineMACs = LineMACCheck(key: keys.macKey)
        // One lock for the whole open: read (or make) the ledger, bring the head up to what is there now (another
        // process appending writes its head under the lock too, so a head written here never lands on top of a
        // newer one, nor two writers' files collide), and write the checkpoint.
        return try ledger.withLock {
            try ledger.openLocked(create: true, openingCredit: Ledger.defaultOpeningCredit)
            // Read-only: read as it is; no head brought up, no checkpoint written (the notice says so).
            if ledger.isReadOnly { return try body(ledger) }
            ledger.headUpkeep = HeadUpkeep(key: keys.headKey)
            ledger.keepsCheckpoint = true
            try ledger.bringHeadUpToDateLocked(key: keys.headKey)
            // So that the next `credit balance` need not read every entry again.
            ledger.writeCheckpointLocked()
            return try body(ledger)
        }
    }

    /// The keys of a data directory that cannot be written: they are read, and cannot be made.
    private static func readOnlyKeys(_ directory: String) throws -> LedgerKeys {
        guard Files.exists(LedgerKeys.macKeyPath(in: directory)) else {
            throw LedgerError.invalid(
                "there is no signed ledger in \(directory), and none can be made there: the directory cannot be written"
            )
        }
        return try LedgerKeys.load(from: directory)
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
        try withLock {
            try refreshLocked()
            guard !isSigned else { throw LedgerError.invalid("the ledger is already signed; nothing to upgrade") }
            return try upgradeLocked(keys: keys)
        }
    }

    private func upgradeLocked(keys: LedgerKeys) throws -> UpgradeReport {
        let path = path(forDevice: device)
        let own = entries.filter { $0.device == device }.sorted { $0.sequence < $1.sequence }
        let authenticator = try keys.makeAuthenticator()
        var bytes: [UInt8] = []
        var previous = String(repeating: "0", count: 64)
        var last: LedgerEntry?
        for var entry in own {
            entry.prev = previous
            let body = EntryCodec.body(of: entry)
            entry.mac = Hex.encode(authenticator.authenticationCode(for: body))
            bytes.append(contentsOf: EntryCodec.line(body: body, mac: entry.mac))
            previous = entry.mac!
            last = entry
        }
        let backup = path + ".unsigned-\(clock.now().milliseconds)"
        // The backup is a hard link to the file as read: only to a regular file (never a link: `linkat` without
        // AT_SYMLINK_FOLLOW would link the link), only to a new name (EEXIST otherwise), and it must be the same
        // file afterwards.
        _ = try Files.regularFileSize(path)
        guard linkat(AT_FDCWD, path, AT_FDCWD, backup, 0) == 0 else {
            throw LedgerError.io(path: backup, operation: "keep a backup", errno: errno)
        }
        guard let original = try Files.entryStatus(path), let copy = try Files.entryStatus(backup),
            original.st_ino == copy.st_ino, original.st_dev == copy.st_dev, copy.st_mode & S_IFMT == S_IFREG
        else {
            throw LedgerError.invalid("\(backup) is not a copy of \(path) after linking it; nothing was upgraded")
        }
        try fileSystem.replaceAtomically(path, with: bytes, mode: 0o600)
        if let last { try SignedHead.make(for: last, key: keys.headKey).write(in: directory, fileSystem: fileSystem) }
        // The open descriptor and the offsets read so far belong to the old file, now the backup: read the new file
        // from the start, and carry on signing with its key and keeping its head.
        resetState()
        self.authenticator = authenticator
        if headUpkeep == nil { headUpkeep = HeadUpkeep(key: keys.headKey) }
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
            ?? Files.list(ledgerDirectory).filter { $0.hasSuffix(".jsonl") }.map { ledgerDirectory + "/" + $0 }
        var heads: [String: SignedHead] = [:]
        var unreadable: [VerificationProblem] = []
        var unreadableOwners: Set<String> = []
        let names = (try? Files.list(directory + "/heads")) ?? []
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
        if files == nil {
            // A head whose device's file is gone: nothing else would show that the file was there.
            let present = Set(paths.map { String($0.lastPathComponent.dropLast(6)) })
            for owner in (heads.keys.sorted() + unreadableOwners.sorted()) where !present.contains(owner) {
                report.problems.append(
                    VerificationProblem(
                        kind: .headOrphaned, file: SignedHead.path(in: directory, device: owner), line: nil,
                        detail: "there is a signed head for device \(owner) but no ledger file \(owner).jsonl: "
                            + "the device's file was removed\(heads[owner].map { " (its head is at #\($0.sequence))" } ?? "")"
                    ))
            }
        }
        return report
    }
}
