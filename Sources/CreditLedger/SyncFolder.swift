import DurableFiles
import Foundation
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

    private struct AccountFile: Codable {
        var format: String
        var account: String
    }

    /// The account the folder is for, as its `account.json` says; nil when there is none, or when it cannot be read
    /// as one (a download not finished, a link: never followed), which the folder's files then decide.
    public func account() -> String? {
        // About 90 bytes; a larger one is refused unread (a file anyone syncing the folder could make as large as
        // the disk), as one that cannot be read.
        guard let bytes = try? Files.readAll(accountPath, limit: 64 * 1024),
            let file = try? JSONDecoder().decode(AccountFile.self, from: Data(bytes)),
            file.format == Self.accountFormat, DeviceID.isValid(file.account)
        else { return nil }
        return file.account
    }

    /// Whether the folder holds an account's ledger already: an account file (whole or not), or a device's file.
    public var holdsAnAccount: Bool {
        if case .some(.some) = try? Self.status(of: accountPath) { return true }
        let names = (try? Files.list(ledgerDirectory)) ?? []
        return names.contains { !$0.hasPrefix(".") && $0.contains(".jsonl") }
    }

    /// What the folder's `account.json` says of the account, for ``prepare(account:fileSystem:)``.
    enum AccountFileState: Equatable {
        /// It names this account.
        case matches
        /// There is none, or it cannot be read (a download not finished, a link, not an account file): the files
        /// decide, and it is written anew.
        case missingOrUnreadable
    }

    /// Makes the folder ready for `account`: `DIR` must be a directory already (a synced folder that is not there
    /// for a moment is not made again here), `DIR/credit` and its two folders are made when missing and must not
    /// be links, and `account.json` must name `account` when it can be read.
    func prepare(account: String, fileSystem: any FileSystem) throws -> AccountFileState {
        guard let status = try Self.status(of: root, following: true), status.st_mode & S_IFMT == S_IFDIR else {
            throw SyncError.folderMissing(path: root)
        }
        for directory in [creditDirectory, ledgerDirectory, headsDirectory] {
            if let found = try Self.status(of: directory) {
                guard found.st_mode & S_IFMT == S_IFDIR else {
                    throw SyncError.notAFolder(path: directory, found: Files.kind(of: found.st_mode))
                }
            } else {
                try fileSystem.makeDirectory(directory, permissions: 0o700)
                try fileSystem.syncDirectory(Files.parent(of: directory))
            }
        }
        guard let found = self.account() else { return .missingOrUnreadable }
        guard found == account else { throw SyncError.anotherAccount(folder: root, found: found, ours: account) }
        return .matches
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

    /// Writes `account.json` naming `account` (the same bytes from every device of the account), replacing one
    /// that cannot be read: a torn copy a sync tool left heals at the next sync. Where there is none, the folder
    /// is claimed: the file is put in place only if no other account's first sync put its own there meanwhile
    /// (two accounts racing into one empty folder), and that account's claim is then a ``SyncError/anotherAccount``
    /// with nothing of this one written.
    func writeAccountFile(_ account: String, fileSystem: any FileSystem) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes = Array(try encoder.encode(AccountFile(format: Self.accountFormat, account: account))) + [0x0A]
        if try Self.status(of: accountPath) != nil {
            // Read again: another account's first sync may have claimed the folder since it was looked at.
            switch self.account() {
            case account?: return
            case let found?: throw SyncError.anotherAccount(folder: root, found: found, ours: account)
            case nil: try fileSystem.replaceAtomically(accountPath, with: bytes, mode: 0o600, syncingDirectory: true)
            }
            return
        }
        let claim = Files.temporaryPath(for: accountPath)
        let fd = try fileSystem.open(claim, .replace, permissions: 0o600)
        defer { fileSystem.removeFile(claim) }
        do {
            try bytes.withUnsafeBytes { try fileSystem.writeAll(fd, $0, path: claim) }
            try fileSystem.sync(fd, path: claim)
        } catch {
            fileSystem.close(fd)
            throw error
        }
        fileSystem.close(fd)
        do {
            try fileSystem.linkNew(claim, as: accountPath)
        } catch let error as FileError where error.errno == EEXIST {
            if let found = self.account(), found != account {
                throw SyncError.anotherAccount(folder: root, found: found, ours: account)
            }
            return
        }
        try fileSystem.syncDirectory(creditDirectory)
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
