import DurableFiles
import Signing

/// Why `credit join` took nothing. Nothing is written when it throws.
public enum JoinError: Error, Equatable, CustomStringConvertible {
    /// This data directory has a ledger or keys already (`found` names what): a device joins an account only from a
    /// new data directory.
    case alreadyHasLedger(directory: String, found: String)
    /// The account's directory is not a data directory with keys and ledger files.
    case notAnAccount(directory: String, reason: String)
    /// A ledger file (or head) of the account does not verify under the account's own keys.
    case refused(MergeRefusal)

    public var description: String {
        switch self {
        case .alreadyHasLedger(let directory, let found):
            return "\(directory) already has a ledger (\(found)): a device joins an account only from a new data "
                + "directory; to take another device's entries into this one, use `credit merge DIR`. Nothing was written"
        case .notAnAccount(let directory, let reason):
            return "\(directory) is not an account's data directory: \(reason). Nothing was written"
        case .refused(let refusal):
            return "the account's ledger does not verify, so it was not joined: \(refusal)"
        }
    }
}

/// What `credit join` did.
public struct JoinReport: Sendable, Equatable, Codable {
    /// This device's new id.
    public var device: String
    /// The account's other devices, whose files were taken.
    public var devices: [String]
    /// The entries taken (every line of every file).
    public var entries: Int
    /// The signed heads taken.
    public var heads: Int
    /// The account's balance, as taken.
    public var balance: MicroCredits
}

extension Ledger {
    /// Makes the new data directory `directory` another device of the account whose data directory is `account` (a
    /// synced vault folder, a copy): its keys (the ledger key and the head-signing key pair, kept 0600) and every
    /// ledger file and head are taken, after every file verifies under those keys whole (as a merge checks it); this
    /// device gets its own new id (from `ids`, never one of the account's), and writes no opening: the account has
    /// one already, and this device's file is made by its first entry. Every file is written through `fileSystem`
    /// (atomically, synced), the `device` file last.
    ///
    /// - Throws: ``JoinError/alreadyHasLedger(directory:found:)`` when `directory` has a ledger file, keys or a
    ///   device id already; ``JoinError/notAnAccount(directory:reason:)`` when `account` has no keys or no ledger
    ///   files; ``JoinError/refused(_:)`` when one of its files or heads does not verify. Nothing is written then.
    @discardableResult
    public static func join(
        directory: String, account: String, ids: any IDSource = RandomIDs(),
        fileSystem: any FileSystem = SystemFileSystem()
    ) throws -> JoinReport {
        if let found = existingLedger(in: directory) {
            throw JoinError.alreadyHasLedger(directory: directory, found: found)
        }
        let keys: LedgerKeys
        let keyBytes: (mac: [UInt8], head: [UInt8], publicKey: [UInt8])
        do {
            keys = try LedgerKeys.load(from: account)
            let publicPath = LedgerKeys.headPublicKeyPath(in: account)
            keyBytes = (
                try KeyFile.read(LedgerKeys.macKeyPath(in: account)),
                try KeyFile.read(LedgerKeys.headKeyPath(in: account)),
                Files.exists(publicPath)
                    ? try Files.readAll(publicPath) : Array(keys.headKey.publicKey.pemRepresentation.utf8)
            )
        } catch {
            throw JoinError.notAnAccount(directory: account, reason: "its keys cannot be read (\(error))")
        }
        let inputs: [MergeInput]
        do {
            inputs = try MergeInput.read([account]).map {
                try MergeInput.checked(
                    path: $0.path, head: $0.head, headPath: $0.headPath, macKey: keys.macKey,
                    publicKey: keys.headKey.publicKey)
            }
        } catch let refusal as MergeRefusal {
            if case .notALedger(let reason) = refusal.reason {
                throw JoinError.notAnAccount(directory: account, reason: reason)
            }
            throw JoinError.refused(refusal)
        }
        let devices = inputs.compactMap(\.device)
        let headNames = ((try? Files.list(account + "/heads")) ?? []).filter { $0.hasSuffix(".json") }
        let taken = Set(devices + headNames.map { String($0.dropLast(5)) })
        var device = ids.makeID()
        while taken.contains(device) || device.isEmpty { device = ids.makeID() }

        var union = LedgerUnion(existing: [])
        for input in inputs {
            guard let owner = input.device else { continue }
            let lines = input.lines
            _ = union.add(device: owner, incoming: lines.map(\.entry), lines: lines.map(\.line), source: input.path)
        }

        try fileSystem.makeDirectories(directory + "/ledger")
        let lock = try FileLock(path: directory + "/ledger/.lock")
        defer { lock.unlock() }
        // Checked again under the lock: two joins at once must not both write.
        if let found = existingLedger(in: directory) {
            throw JoinError.alreadyHasLedger(directory: directory, found: found)
        }
        try fileSystem.makeDirectories(LedgerKeys.directory(in: directory))
        try fileSystem.replaceAtomically(LedgerKeys.macKeyPath(in: directory), with: keyBytes.mac, mode: 0o600)
        try fileSystem.replaceAtomically(LedgerKeys.headKeyPath(in: directory), with: keyBytes.head, mode: 0o600)
        try fileSystem.replaceAtomically(
            LedgerKeys.headPublicKeyPath(in: directory), with: keyBytes.publicKey, mode: 0o644)
        var heads = 0
        for input in inputs {
            guard let owner = input.device else { continue }
            try fileSystem.replaceAtomically(directory + "/ledger/\(owner).jsonl", with: input.file.bytes, mode: 0o600)
            if let head = input.head {
                try head.write(in: directory, fileSystem: fileSystem)
                heads += 1
            }
        }
        // A head whose file is gone is evidence: it travels too, for `credit verify` to report.
        for name in headNames where !devices.contains(String(name.dropLast(5))) {
            try fileSystem.makeDirectories(directory + "/heads")
            try fileSystem.replaceAtomically(
                directory + "/heads/" + name, with: try Files.readAll(account + "/heads/" + name), mode: 0o600)
            heads += 1
        }
        try fileSystem.replaceAtomically(directory + "/device", with: Array((device + "\n").utf8), mode: 0o600)
        return JoinReport(
            device: device, devices: devices.sorted(), entries: inputs.reduce(0) { $0 + $1.file.lineCount },
            heads: heads, balance: union.balance)
    }

    /// What in `directory` shows it has a ledger already (a device id, a ledger file, a key), or nil.
    private static func existingLedger(in directory: String) -> String? {
        if Files.exists(directory + "/device") { return "device" }
        let names = (try? Files.list(directory + "/ledger")) ?? []
        if let file = names.first(where: { $0.hasSuffix(".jsonl") }) { return "ledger/" + file }
        for path in [LedgerKeys.macKeyPath(in: directory), LedgerKeys.headKeyPath(in: directory)]
        where Files.exists(path) {
            return "keys/" + path.lastPathComponent
        }
        return nil
    }
}
