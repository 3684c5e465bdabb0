import DurableFiles
import Foundation

/// A data directory that holds no account yet (not there when the command started, or an empty directory): a
/// command that fails leaves nothing of what it made there, a command that only reads never makes an account there
/// (it shows what a new account shows, from a scratch directory removed at the end), and a command about an account
/// that exists (export, devices, verify) says there is none.
struct NewDataDirectory {
    /// The data directory.
    let path: String
    /// The highest of the data directory and its parents that is not there, or nil when the data directory is.
    let topmostMissing: String?
    /// The data directory was there, a directory holding nothing.
    let wasEmpty: Bool
    /// What the clean-up after a failure removes through.
    let fileSystem: any FileSystem

    init(_ path: String, fileSystem: any FileSystem = SystemFileSystem()) {
        self.path = path
        self.fileSystem = fileSystem
        var missing: String?
        var current = path
        while !current.isEmpty, case .some(.none) = try? Files.entryStatus(current) {
            missing = current
            let parent = Files.parent(of: current)
            if parent == current { break }
            current = parent
        }
        topmostMissing = missing
        wasEmpty = missing == nil && NewDataDirectory.isEmptyDirectory(path)
    }

    /// Whether the data directory holds no account: not there, or empty.
    var isNew: Bool { topmostMissing != nil || wasEmpty }

    /// Removes what the command made, after it failed: the directories it made, or what it put in the empty one.
    func removeAfterFailure() {
        if let topmostMissing {
            try? fileSystem.removeTree(topmostMissing)
        } else if wasEmpty, let names = try? fileSystem.listDirectory(path) {
            for name in names { try? fileSystem.removeTree(path + "/" + name) }
        }
    }

    /// The refusal of a command that uses the data directory so here when it needs an account and there is none,
    /// else nil.
    func refusal(of use: AccountUse) -> CreditFailure? {
        guard isNew, case .needsAccount(let missing) = use else { return nil }
        return .noAccount(directory: path, lacking: missing)
    }

    /// A directory (not a link to one) with nothing in it.
    private static func isEmptyDirectory(_ path: String) -> Bool {
        guard let info = try? Files.entryStatus(path), info.st_mode & S_IFMT == S_IFDIR else { return false }
        return (try? Files.list(path))?.isEmpty ?? false
    }

    /// A scratch data directory for a reading command (private to this user), and a way to remove it (through
    /// `fileSystem`). Made by `mkdtemp`, which the seam has no call for: a name nobody else can have made first.
    static func makeScratch(fileSystem: any FileSystem = SystemFileSystem()) throws
        -> (path: String, remove: () -> Void)
    {
        var template = Array((NSTemporaryDirectory() + "/credit-new-account-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw CreditFailure.noScratchDirectory
        }
        let path = String(cString: made)
        return (path + "/data", { try? fileSystem.removeTree(path) })
    }
}
