#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a device that keeps syncing (`credit sync --watch`) remembers between rounds: the folder's files it has
/// taken or left alone, as they were. A file seen again unchanged is not read again (so a file left alone is named
/// once), and one that changed is judged again (a partial download is taken when it is whole).
public struct SyncMemo: Sendable, Equatable {
    /// What identifies a file's content at one moment, from `lstat`: any write changes the size or the change time
    /// (which no program can set back), and a file put in its place changes the inode.
    struct Stamp: Sendable, Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var changedSeconds: Int64
        var changedNanoseconds: Int64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            #if canImport(Darwin)
                changedSeconds = Int64(info.st_ctimespec.tv_sec)
                changedNanoseconds = Int64(info.st_ctimespec.tv_nsec)
            #else
                changedSeconds = Int64(info.st_ctim.tv_sec)
                changedNanoseconds = Int64(info.st_ctim.tv_nsec)
            #endif
        }
    }

    /// The files judged, as they were then.
    var judged: [String: Stamp] = [:]
    /// This device's file in the folder as this device last wrote or found it, with the sequence it then held.
    var ownFile: (stamp: Stamp, sequence: Int64)? {
        get { ownFileStamp.map { ($0, ownFileSequence) } }
        set {
            ownFileStamp = newValue?.stamp
            ownFileSequence = newValue?.sequence ?? 0
        }
    }
    private var ownFileStamp: Stamp?
    private var ownFileSequence: Int64 = 0

    public init() {}
}
