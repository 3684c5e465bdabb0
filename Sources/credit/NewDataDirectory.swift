import DurableFiles
import Foundation

/// A data directory that was not there when the command started: a command that fails leaves nothing of it.
struct NewDataDirectory {
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
}
