import DurableFiles
import Foundation

/// A data directory that was not there when the command started: a command that fails leaves nothing of it, and a
/// command that only reads never makes it (it shows what a new account shows, from a scratch directory removed at
/// the end).
struct NewDataDirectory {
    /// The commands that only read the ledger.
    static let readingCommands: Set<String> = ["balance", "screen", "entries", "takings", "pnl", "devices", "verify"]

    /// The highest of the data directory and its parents that is not there, or nil when the data directory is.
    let topmostMissing: String?

    init(_ path: String) {
        var missing: String?
        var current = path
        while !current.isEmpty, case .some(.none) = try? Files.entryStatus(current) {
            missing = current
            let parent = Files.parent(of: current)
            if parent == current { break }
            current = parent
        }
        topmostMissing = missing
    }

    /// Whether the data directory was not there.
    var isMissing: Bool { topmostMissing != nil }

    /// Removes what the command made, after it failed.
    func removeAfterFailure() {
        guard let topmostMissing else { return }
        try? SystemFileSystem().removeTree(topmostMissing)
    }

    /// A scratch data directory for a reading command (private to this user), and a way to remove it.
    static func makeScratch() throws -> (path: String, remove: () -> Void) {
        var template = Array((NSTemporaryDirectory() + "/credit-new-account-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw CommandFailure("cannot make a scratch directory to show a new account in")
        }
        let path = String(cString: made)
        return (path + "/data", { try? SystemFileSystem().removeTree(path) })
    }
}
