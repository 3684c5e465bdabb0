import DurableFiles
import Foundation
import LedgerEntries

/// A synced folder's directories held open for one sync: `DIR`, `DIR/credit`, `DIR/credit/ledger` and
/// `DIR/credit/heads`, each opened once, and every read, write and rename of the round made through them.
///
/// The folder is shared with a sync tool and with whoever else syncs it, so its directories can change under a
/// sync: one swapped for a link to a directory elsewhere (`rename` with `RENAME_EXCHANGE`) would receive, if written
/// by path, this device's head, its whole ledger file or `account.json`. Held by their descriptors, the directories
/// written are the ones opened; the three inside `DIR` are opened from their parent without following a link, so a
/// link there is refused (``SyncError/notAFolder(path:found:)``), never followed. `DIR` itself is the folder the
/// user named, and may be a link, followed once when it is opened.
final class OpenSyncFolder {
    /// The folder, by its paths (for messages and the memo's keys).
    let folder: SyncFolder
    /// `DIR`.
    let root: DirectoryHandle
    /// `DIR/credit`.
    let credit: DirectoryHandle
    /// `DIR/credit/ledger`.
    let ledger: DirectoryHandle
    /// `DIR/credit/heads`.
    let heads: DirectoryHandle

    /// The name of the account file in `credit/`.
    static let accountName = "account.json"

    /// Opens `folder`: `DIR` must be a directory already (a synced folder that is not there for a moment is not made
    /// again here: ``SyncError/folderMissing(path:)``); `credit` and its two folders are made when missing (each
    /// made durable in its parent), and must be directories, not links.
    init(_ folder: SyncFolder, fileSystem: any FileSystem) throws {
        self.folder = folder
        do {
            root = try DirectoryHandle(opening: folder.root, followingLink: true)
        } catch let error as FileError where error.errno == ENOENT || error.errno == ENOTDIR {
            throw SyncError.folderMissing(path: folder.root)
        }
        credit = try Self.directory("credit", in: root, fileSystem: fileSystem)
        ledger = try Self.directory("ledger", in: credit, fileSystem: fileSystem)
        heads = try Self.directory("heads", in: credit, fileSystem: fileSystem)
    }

    /// Opens the directory `name` in `parent`, made when missing; anything else there (a link included) is refused.
    private static func directory(_ name: String, in parent: DirectoryHandle, fileSystem: any FileSystem) throws
        -> DirectoryHandle
    {
        if let found = try parent.status(of: name) {
            guard found.st_mode & S_IFMT == S_IFDIR else {
                throw SyncError.notAFolder(path: parent.path(of: name), found: Files.kind(of: found.st_mode))
            }
        } else {
            try fileSystem.makeDirectory(name, in: parent, permissions: 0o700)
            try fileSystem.syncDirectory(parent)
        }
        do {
            return try parent.directory(name)
        } catch let error as FileError where error.isSymbolicLink || error.errno == ENOTDIR {
            // Swapped since it was looked at (a directory then, not one as it was opened): said as what is there now,
            // or, when the directory is back, as an entry swapped in and out.
            let now = (try? parent.status(of: name)).flatMap { $0 }.map(\.st_mode)
            let found = now.flatMap { $0 & S_IFMT == S_IFDIR ? nil : Files.kind(of: $0) }
            throw SyncError.notAFolder(
                path: parent.path(of: name), found: found ?? "an entry swapped in and out while it was being opened")
        }
    }

    // MARK: the account file

    /// The account the folder's `account.json` names; nil when there is none, or when it cannot be read as one (a
    /// download not finished, a link: never followed), which the folder's files then decide.
    func account() -> String? {
        SyncFolder.account(
            in: (try? credit.readAll(Self.accountName, limit: SyncFolder.largestAccountFile)) ?? [])
    }

    /// Makes the folder ready for `account`: `account.json` must name `account` when it can be read.
    func prepare(account: String) throws -> AccountFileState {
        guard let found = self.account() else { return .missingOrUnreadable }
        guard found == account else {
            throw SyncError.anotherAccount(folder: folder.root, found: found, ours: account)
        }
        return .matches
    }

    /// What the folder's `account.json` says of the account, for ``prepare(account:)``.
    enum AccountFileState: Equatable {
        /// It names this account.
        case matches
        /// There is none, or it cannot be read (a download not finished, a link, not an account file): the files
        /// decide, and it is written anew.
        case missingOrUnreadable
    }

    /// Writes `account.json` naming `account` (the same bytes from every device of the account), replacing one
    /// that cannot be read: a torn copy a sync tool left heals at the next sync. Where there is none, the folder
    /// is claimed: the file is put in place only if no other account's first sync put its own there meanwhile
    /// (two accounts racing into one empty folder), and that account's claim is then a ``SyncError/anotherAccount``
    /// with nothing of this one written.
    func writeAccountFile(_ account: String, fileSystem: any FileSystem) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes =
            Array(try encoder.encode(SyncFolder.AccountFile(format: SyncFolder.accountFormat, account: account)))
            + [0x0A]
        if try credit.status(of: Self.accountName) != nil {
            // Read again: another account's first sync may have claimed the folder since it was looked at.
            switch self.account() {
            case account?: return
            case let found?: throw SyncError.anotherAccount(folder: folder.root, found: found, ours: account)
            case nil:
                try fileSystem.replaceAtomically(
                    Self.accountName, in: credit, with: bytes, mode: 0o600, syncingDirectory: true)
            }
            return
        }
        try claim(with: bytes, for: account, fileSystem: fileSystem)
    }

    /// Puts `bytes` in place as `account.json` only if nothing has that name yet (a hard link from a synced
    /// temporary, `EEXIST` otherwise).
    private func claim(with bytes: [UInt8], for account: String, fileSystem: any FileSystem) throws {
        let claim = Files.temporaryPath(for: Self.accountName)
        let shown = credit.path(of: claim)
        let fd = try fileSystem.open(claim, in: credit, .replace, permissions: 0o600)
        defer { fileSystem.removeFile(claim, in: credit) }
        do {
            try bytes.withUnsafeBytes { try fileSystem.writeAll(fd, $0, path: shown) }
            try fileSystem.sync(fd, path: shown)
        } catch {
            fileSystem.close(fd)
            throw error
        }
        fileSystem.close(fd)
        do {
            try fileSystem.linkNew(claim, as: Self.accountName, in: credit)
        } catch let error as FileError where error.errno == EEXIST {
            if let found = self.account(), found != account {
                throw SyncError.anotherAccount(folder: folder.root, found: found, ours: account)
            }
            return
        }
        try fileSystem.syncDirectory(credit)
    }
}
