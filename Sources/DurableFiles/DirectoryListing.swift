import Platform

/// A directory's names, listed again only when the directory may have changed since: every durable append re-reads
/// what other processes did, and listing `ledger/` each time cost more than a third of what the ledger adds to a
/// `write` and an `fdatasync`.
///
/// A listing is reused while the directory's identity, change time and modification time are what they were. The
/// kernel stamps those with a coarse clock, so a change made in the same tick as the listing could leave them as
/// they were: as git does for its index ("racy git"), a listing is kept only when the directory's last change is
/// older than the listing by more than the stamps' granularity. Where the stamps carry fractions of a second
/// (ext4, XFS, btrfs, tmpfs: the kernel's tick, 1 to 10 ms), 50 ms; where they are whole seconds (a file system
/// that keeps only seconds, or two-second FAT), 2 s. (Waiting a second every time kept the ledger listing
/// `ledger/` on every append made within a second of the last change to it.)
public struct DirectoryListing {
    /// Changes this much older than the listing (nanoseconds) cannot share its clock tick; nil: by the stamps.
    private let settled: Int64?
    /// The wait for stamps with fractions of a second, and for stamps of whole seconds.
    static let settledFine: Int64 = 50_000_000
    static let settledCoarse: Int64 = 2_000_000_000
    private var stamp: FileStamp?
    private var names: [String] = []
    /// How many times the directory was actually listed.
    public private(set) var listings = 0

    /// An empty cache: the first ``names(of:)`` lists. `settledAfterNanoseconds`: how much older than a listing the
    /// directory's last change must be for the listing to be kept (nil: 50 ms, or 2 s for stamps of whole seconds;
    /// tests set it).
    public init(settledAfterNanoseconds: Int64? = nil) {
        settled = settledAfterNanoseconds
    }

    /// The sorted names in `path` (not `.` and `..`), from the cache when the directory is as it was.
    ///
    /// - Throws: ``FileError`` naming the path, also when it is not a directory (a link included).
    public mutating func names(of path: String) throws -> [String] {
        guard let info = try Files.entryStatus(path) else {
            stamp = nil
            throw FileError(path: path, operation: .opendir, errno: ENOENT)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            stamp = nil
            throw FileError(path: path, operation: .opendir, errno: ENOTDIR)
        }
        return try names(stamp: FileStamp(info)) { try Files.list(path) }
    }

    /// The names `list` gives, or the cached ones while the directory's stamp is `current` still.
    private mutating func names(stamp current: FileStamp, list: () throws -> [String]) throws -> [String] {
        let now = Self.realTimeNanoseconds()
        if let stamp, stamp == current { return names }
        names = try list()
        listings += 1
        let modified = current.modifiedSeconds &* 1_000_000_000 &+ current.modifiedNanoseconds
        let lastChange = max(modified, current.changedNanosecondsSinceEpoch)
        let wholeSeconds = current.modifiedNanoseconds == 0 && current.changedNanoseconds == 0
        let wait = settled ?? (wholeSeconds ? Self.settledCoarse : Self.settledFine)
        stamp = now - lastChange > wait ? current : nil
        return names
    }

    /// The names of the directory held open: its stamp taken with `fstat` and its names listed through
    /// its descriptor, whatever its path names now.
    public mutating func names(of directory: DirectoryHandle) throws -> [String] {
        var info = stat()
        guard fstat(directory.descriptor, &info) == 0 else {
            stamp = nil
            throw FileError(path: directory.path, operation: .fstat, errno: errno)
        }
        return try names(stamp: FileStamp(info)) { try directory.names() }
    }

    /// Forgets the listing: the next call lists again.
    public mutating func forget() { stamp = nil }

    private static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    private static func realTimeNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return nanoseconds(now)
    }
}
