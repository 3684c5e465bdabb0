import DurableFiles
import Foundation
import LedgerEntries
import Signing

/// A folder that something else syncs (the app's vault, iCloud Drive, Syncthing, a git repository), through which
/// the devices of one account keep in step (`credit sync DIR`).
///
/// Its layout is a data directory without keys, under `DIR/credit/`: `account.json` (which account the folder is
/// for: the account id, from the public head key), `ledger/<device>.jsonl` (each device's file, written only by that
/// device, replaced whole) and `heads/<device>.json` (its signed head). A synced folder is shared more widely than a
/// data directory, so it never holds a key, and everything in it is untrusted input: a file is taken only when it
/// verifies under the account's key, and links are never followed.
public struct SyncFolder: Sendable, Equatable {
    /// The folder given (`DIR`).
    public let root: String

    public init(_ root: String) {
        var trimmed = root
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.root = trimmed
    }

    /// `DIR/credit`: the only place a sync writes in the folder.
    public var creditDirectory: String { root + "/credit" }
    /// The devices' files.
    public var ledgerDirectory: String { creditDirectory + "/ledger" }
    /// The devices' signed heads.
    public var headsDirectory: String { creditDirectory + "/heads" }
    /// Which account the folder is for.
    public var accountPath: String { creditDirectory + "/account.json" }

    /// The name of the account file's format.
    static let accountFormat = "voicedebrief-sync-folder-v1"

    struct AccountFile: Codable {
        var format: String
        var account: String
    }

    /// The account the folder is for, as its `account.json` says; nil when there is none, or when it cannot be read
    /// as one (a download not finished, a link: never followed), which the folder's files then decide.
    public func account() -> String? {
        Self.account(in: (try? Files.readAll(accountPath, limit: Self.largestAccountFile)) ?? [])
    }

    /// The most an account file may hold: about 90 bytes; a larger one is refused unread (a file anyone syncing the
    /// folder could make as large as the disk), as one that cannot be read.
    static let largestAccountFile = 64 * 1024

    /// The account an account file's `bytes` name, or nil when they are not an account file.
    static func account(in bytes: [UInt8]) -> String? {
        guard let file = try? JSONDecoder().decode(AccountFile.self, from: Data(bytes)),
            file.format == Self.accountFormat, DeviceID.isValid(file.account)
        else { return nil }
        return file.account
    }

    /// The folder's directories opened for one sync, made when missing (``OpenSyncFolder``).
    func opened(fileSystem: any FileSystem) throws -> OpenSyncFolder {
        try OpenSyncFolder(self, fileSystem: fileSystem)
    }

    /// Whether the folder holds an account's ledger already: an account file (whole or not), or a device's file.
    public var holdsAnAccount: Bool {
        if case .some(.some) = try? Self.status(of: accountPath) { return true }
        let names = (try? Files.list(ledgerDirectory)) ?? []
        return names.contains { !$0.hasPrefix(".") && $0.contains(".jsonl") }
    }

    /// Whether `path` is the folder or inside it, links resolved (a data directory there would sync its keys); a
    /// path not made yet is judged by the nearest folder above it that is there.
    public func contains(_ path: String) -> Bool {
        guard let folder = Self.resolved(root) else { return false }
        var current = path
        while Self.resolved(current) == nil {
            let parent = Files.parent(of: current)
            if parent == current { return false }
            current = parent
        }
        guard let inner = Self.resolved(current) else { return false }
        return inner == folder || inner.hasPrefix(folder == "/" ? "/" : folder + "/")
    }

    /// `path` with every link and `.`/`..` resolved, or nil when it is not there.
    private static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The `lstat` (or, `following` links, the `stat`) of `path`, or nil when nothing is there.
    static func status(of path: String, following: Bool = false) throws -> stat? {
        guard following else { return try Files.entryStatus(path) }
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw FileError(path: path, operation: .stat, errno: errno)
        }
        return info
    }

    /// The account id of the account whose head key is `publicKey`: the first 128 bits of SHA-256 over a fixed
    /// label and the key's DER, in hex. The same id names the account in its P&L summaries.
    public static func accountID(for publicKey: P256PublicKey) -> String {
        let label = Array("voicedebrief-account-id-v1\n".utf8)
        return Hex.encode(Array(SHA256.hash(label + publicKey.derRepresentation).prefix(16)))
    }
}
