import DurableFiles
import LedgerEntries

/// What a device that keeps syncing (`credit sync --watch`) remembers between rounds: the folder's files it has
/// taken or left alone, as they were. A file seen again unchanged is not read again (so a file left alone is named
/// once), and one that changed is judged again (a partial download is taken when it is whole).
public struct SyncMemo: Sendable, Equatable {
    /// What identifies a file's content at one moment (its `lstat`).
    typealias Stamp = FileStamp

    /// The files judged, as they were then.
    var judged: [String: Stamp] = [:]
    /// This device's file in the folder as this device last wrote or found it, with the sequence it then held.
    var ownFile: OwnFile?

    /// This device's file in the folder at one moment.
    struct OwnFile: Sendable, Equatable {
        var stamp: Stamp
        var sequence: Int64
    }

    public init() {}
}
