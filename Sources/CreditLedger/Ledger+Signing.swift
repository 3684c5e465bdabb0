#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Signing

extension Ledger {
    /// Opens (or creates) a signed ledger: the owner's keys are made on first use, every new entry is chained with
    /// HMAC-SHA256, and this device's signed head is kept current. A ledger made before signing stays unsigned
    /// (``isSigned`` is false) until ``upgradeToSigned(keys:)``: never silently.
    public static func openSigned(directory: String, clock: any LedgerClock = SystemClock(),
                                  ids: any IDSource = RandomIDs()) throws -> Ledger {
        let keys = try LedgerKeys.loadOrCreate(in: directory)
        let ledger = try Ledger(directory: directory, clock: clock, ids: ids, authenticator: try keys.makeAuthenticator())
        ledger.observers.append(HeadKeeper(key: keys.headKey))
        if ledger.isSigned, let last = ledger.lastEntry(of: ledger.device), last.mac != nil {
            let head = try SignedHead.read(in: directory, device: ledger.device)
            // A new ledger gets its first head; a head left one behind by an interrupted write catches up. A missing
            // head on an existing ledger is left for `credit verify` to report.
            if (ledger.wasCreated && head == nil) || (head.map { $0.sequence < last.sequence } ?? false) {
                try SignedHead.make(for: last, key: keys.headKey).write(in: directory)
            }
        }
        return ledger
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
        guard link(path, backup) == 0 else { throw LedgerError.io(path: backup, operation: "keep a backup", errno: errno) }
        try POSIXFile.replaceAtomically(path, with: bytes, mode: 0o600)
        if let last { try SignedHead.make(for: last, key: keys.headKey).write(in: directory) }
        return UpgradeReport(entriesSigned: own.count, file: path, backup: backup)
    }

    /// Verifies this data directory's ledger files (or `files`), with its keys and heads.
    public func verify(files: [String]? = nil, receiptCheck: ((LedgerEntry) -> String?)?) throws -> VerificationReport {
        let keys = try LedgerKeys.load(from: directory)
        let publicKey = keys.headKey.publicKey
        let paths = files ?? devicePaths.values.sorted()
        var heads: [String: SignedHead] = [:]
        let names = (try? POSIXFile.list(directory + "/heads")) ?? []
        for name in names where name.hasSuffix(".json") {
            let owner = String(name.dropLast(5))
            if let head = try SignedHead.read(in: directory, device: owner) { heads[owner] = head }
        }
        let verifier = LedgerVerifier(macKey: keys.macKey, headPublicKey: publicKey, receiptCheck: receiptCheck)
        return try verifier.verify(files: paths, heads: heads, requireHeads: files == nil && isSigned ? [device] : [])
    }
}
