#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A directory's names, listed again only when the directory may have changed since: every durable append re-reads
/// what other processes did, and listing `ledger/` each time cost more than a third of what the ledger adds to a
/// `write` and an `fdatasync`.
///
/// A listing is reused while the directory's identity, change time and modification time are what they were. The
/// kernel stamps those with a coarse clock (a tick of a few milliseconds), so a change made in the same tick as the
/// listing could leave them as they were: as git does for its index ("racy git"), a listing is kept only when the
/// directory's last change is more than a second older than the listing itself.
public struct DirectoryListing {
    private struct Stamp: Equatable {
        var device: UInt64
        var inode: UInt64
        var modified: timespec
        var changed: timespec

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            modified = info.st_mtim
            changed = info.st_ctim
        }

        static func == (a: Stamp, b: Stamp) -> Bool {
            a.device == b.device && a.inode == b.inode && a.modified.tv_sec == b.modified.tv_sec
                && a.modified.tv_nsec == b.modified.tv_nsec && a.changed.tv_sec == b.changed.tv_sec
                && a.changed.tv_nsec == b.changed.tv_nsec
        }
    }

    /// Changes this much older than the listing (nanoseconds) cannot share its clock tick.
    private let settled: Int64
    private var stamp: Stamp?
    private var names: [String] = []
    /// How many times the directory was actually listed.
    public private(set) var listings = 0

    /// An empty cache: the first ``names(of:)`` lists. `settledAfterNanoseconds`: how much older than a listing the
    /// directory's last change must be for the listing to be kept (a second; tests shorten it).
    public init(settledAfterNanoseconds: Int64 = 1_000_000_000) {
        settled = settledAfterNanoseconds
    }

    /// The sorted names in `path` (not `.` and `..`), from the cache when the directory is as it was.
    ///
    /// - Throws: ``FileError`` naming the path, also when it is not a directory (a link included).
    public mutating func names(of path: String) throws -> [String] {
        guard let info = try Files.entryStatus(path) else {
            stamp = nil
            throw FileError(path: path, operation: "opendir", errno: ENOENT)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            stamp = nil
            throw FileError(path: path, operation: "opendir", errno: ENOTDIR)
        }
        let now = Self.realTimeNanoseconds()
        let current = Stamp(info)
        if let stamp, stamp == current { return names }
        names = try Files.list(path)
        listings += 1
        let lastChange = max(Self.nanoseconds(current.modified), Self.nanoseconds(current.changed))
        stamp = now - lastChange > settled ? current : nil
        return names
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
