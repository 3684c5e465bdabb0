import Clocks
import DurableFiles
import Foundation
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
    /// ``LedgerCheckpoint/balance(directory:)``): it would wait for ever.
    public static func openSigned<T>(
        directory: String, clock: any LedgerClock = SystemClock(), ids: any IDSource = RandomIDs(),
        fileSystem: any FileSystem = SystemFileSystem(), whileLocked body: (Ledger) throws -> T
    ) throws -> T {
        // Nothing is read through, or made in, a data directory that is a link, another user's, or others may write.
        try LedgerDirectory.check(directory)
        // A writable one is held open from here: the keys are made, and the ledger written, through its descriptor.
        let held =
            LedgerDirectory.cannotWrite(directory)
            ? nil : try HeldDataDirectory.making(directory, fileSystem: fileSystem)
        let keys =
            try held.map { try LedgerKeys.loadOrCreate(in: $0, fileSystem: fileSystem) } ?? readOnlyKeys(directory)
        let ledger = try Ledger(
            unopened: directory, clock: clock, ids: ids, authenticator: try keys.makeAuthenticator(),
            fileSystem: fileSystem, held: held)
        ledger.lineMACs = LineMACCheck(key: keys.macKey)
        // One lock for the whole open: read (or make) the ledger, bring the head up to what is there now (another
        // process appending writes its head under the lock too, so a head written here never lands on top of a
        // newer one, nor two writers' files collide), and write the checkpoint.
        return try ledger.withLock {
            try ledger.openLocked(create: true, openingCredit: Ledger.defaultOpeningCredit)
            ledger.noteMergedHeadsLocked(publicKey: keys.headKey.publicKey)
            // Read-only: read as it is; no head brought up, no checkpoint written (the notice says so).
            if ledger.isReadOnly { return try body(ledger) }
            let upkeep = HeadUpkeep(key: keys.headKey)
            ledger.headUpkeep = upkeep
            ledger.keepsCheckpoint = true
            try upkeep.bringUpToDate(in: ledger)
            // So that the next `credit balance` need not read every entry again.
            LedgerCheckpoint.writeLocked(for: ledger)
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
        // Through `ledger/` held open, as every write of the data directory.
        let held = try heldDirectories().ledger
        let name = Files.lastComponent(of: path)
        let backupName = Files.lastComponent(of: backup)
        guard linkat(held.descriptor, name, held.descriptor, backupName, 0) == 0 else {
            throw LedgerError.io(path: backup, operation: "keep a backup", errno: errno)
        }
        guard let original = try held.status(of: name), let copy = try held.status(of: backupName),
            original.st_ino == copy.st_ino, original.st_dev == copy.st_dev, copy.st_mode & S_IFMT == S_IFREG
        else {
            throw LedgerError.invalid("\(backup) is not a copy of \(path) after linking it; nothing was upgraded")
        }
        try fileSystem.replaceAtomically(name, in: held, with: bytes, mode: 0o600)
        if let last {
            try SignedHead.make(for: last, key: keys.headKey).write(into: try headsDirectory(), fileSystem: fileSystem)
        }
        // The open descriptor and the offsets read so far belong to the old file, now the backup: read the new file
        // from the start, and carry on signing with its key and keeping its head.
        resetState()
        self.authenticator = authenticator
        if headUpkeep == nil { headUpkeep = HeadUpkeep(key: keys.headKey) }
        try refreshLocked()
        return UpgradeReport(entriesSigned: own.count, file: path, backup: backup)
    }

    // MARK: the account token

    /// This account's `appAccountToken`: the UUID sent with every purchase, by which the store's record says whose
    /// purchase it is. It is made from the account's ledger key (HMAC-SHA256 of a fixed label, cut to a version 4
    /// UUID), so every device of the account has the same one without keeping another file, an account made before
    /// tokens existed has one too, and nobody can work the key out from it. Nil for a ledger made before signing.
    public var accountToken: UUID? {
        guard let authenticator else { return nil }
        var bytes = Array(authenticator.authenticationCode(for: Array(Ledger.accountTokenLabel.utf8)).prefix(16))
        guard bytes.count == 16 else { return nil }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// What the account token is the MAC of.
    static let accountTokenLabel = "voicedebrief-credit appAccountToken v1"
}
