import DurableFiles
import LedgerEntries
import Platform
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
    /// The new data directory exists and holds something already: a join makes the whole directory at once.
    case notEmpty(directory: String)

    public var description: String {
        switch self {
        case .alreadyHasLedger(let directory, let found):
            return "\(directory) already has a ledger (\(found)): a device joins an account only from a new data "
                + "directory; to take another device's entries into this one, use `credit merge DIR`. Nothing was written"
        case .notAnAccount(let directory, let reason):
            return "\(directory) is not an account's data directory: \(reason). Nothing was written"
        case .refused(let refusal):
            return "the account's ledger does not verify, so it was not joined: \(refusal)"
        case .notEmpty(let directory):
            return "\(directory) is not empty: a device joins an account on a new, empty data directory (or one that "
                + "does not exist yet). Nothing was written"
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

extension AccountSync {
    /// Makes the new data directory `directory` another device of the account whose data directory is `account` (a
    /// synced vault folder, a copy): its keys (the ledger key and the head-signing key pair, kept 0600) and every
    /// ledger file and head are taken, after every file verifies under those keys whole (as a merge checks it), with
    /// the account's store configuration and pinned roots; this device gets its own new id (from `ids`, never one of
    /// the account's), and writes no opening: the account has one already, and this device's file is made by its
    /// first entry. All or nothing: the whole device is built and synced in a hidden directory beside `directory`
    /// (through `fileSystem`) and renamed into place in one step, so a join killed at any point leaves `directory`
    /// untouched, and running it again completes it.
    ///
    /// - Throws: ``JoinError/alreadyHasLedger(directory:found:)`` when `directory` has a ledger file, keys or a
    ///   device id already; ``JoinError/notEmpty(directory:)`` when it holds anything else; `extras` are other files (or directories of files)
    ///   of the account's data directory to take when they are there, by their path inside it (the app's store
    ///   configuration); ``JoinError/notAnAccount(directory:reason:)`` when `account` has no keys or no ledger
    ///   files; ``JoinError/refused(_:)`` when one of its files or heads does not verify. Nothing is written then.
    @discardableResult
    public static func join(
        directory: String, account: String, carrying extras: [String] = [], ids: any IDSource = RandomIDs(),
        fileSystem: any FileSystem = SystemFileSystem()
    ) throws -> JoinReport {
        if let found = existingLedger(in: directory) {
            throw JoinError.alreadyHasLedger(directory: directory, found: found)
        }
        let taken = try JoinedAccount.read(account, extras: extras)
        let known = taken.knownDevices
        var device = ids.makeID()
        while known.contains(device) || !DeviceID.isValid(device) { device = ids.makeID() }
        let staging = stagingPath(for: directory)
        // A join killed before it was whole left its staging beside the directory, never in it: start again.
        try fileSystem.removeTree(staging)
        do {
            try taken.write(into: staging, device: device, fileSystem: fileSystem)
            try CrashPoints.hit("join.before-rename")
            // The one step that makes the device: the directory is untouched before it and whole after it.
            try fileSystem.rename(staging, to: directory)
            try fileSystem.syncDirectory(Files.parent(of: directory))
        } catch {
            try? fileSystem.removeTree(staging)
            if let found = existingLedger(in: directory) {
                throw JoinError.alreadyHasLedger(directory: directory, found: found)
            }
            if let refusal = error as? FileError, refusal.operation == .rename,
                refusal.errno == ENOTEMPTY || refusal.errno == EEXIST
            {
                throw JoinError.notEmpty(directory: directory)
            }
            throw error
        }
        return JoinReport(
            device: device, devices: taken.devices.sorted(), entries: taken.entries, heads: taken.heads.count,
            balance: taken.balance)
    }

    /// Where a join builds the new device before it is renamed into place: a hidden directory beside it.
    static func stagingPath(for directory: String) -> String {
        var trimmed = directory
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        let parent = Files.parent(of: trimmed)
        let name = Files.lastComponent(of: trimmed)
        return (parent.isEmpty ? "" : parent + "/") + "." + name + ".joining"
    }

    /// What in `directory` shows it has a ledger already (a device id, a ledger file, a key), or nil.
    private static func existingLedger(in directory: String) -> String? {
        if Files.exists(directory + "/device") { return "device" }
        let names = (try? Files.list(directory + "/ledger")) ?? []
        if let file = names.first(where: { $0.hasSuffix(".jsonl") }) { return "ledger/" + file }
        for path in [LedgerKeys.macKeyPath(in: directory), LedgerKeys.headKeyPath(in: directory)]
        where Files.exists(path) {
            return "keys/" + Files.lastComponent(of: path)
        }
        return nil
    }
}
