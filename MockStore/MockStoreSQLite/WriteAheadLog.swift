import Platform
import Synchronization

/// The WAL file of a database, flushed to the disk by ``GroupCommit`` itself, outside the database lock.
///
/// With `synchronous=FULL`, SQLite flushes the WAL inside `COMMIT`, while the one connection is held: every other
/// request waits for the disk. With `synchronous=NORMAL` a commit only writes its frames, and this flush (an
/// `fdatasync` of the same file, through a descriptor of its own) makes it durable, the same as FULL would have,
/// while the next batch already runs: the frames of every commit made before the flush began are on the disk when
/// it returns. SQLite still flushes the WAL before each checkpoint and the database after it, so a checkpoint
/// never moves frames that are not on the disk yet.
///
/// The descriptor is opened when this is made, so a flush reaches the file SQLite writes even if its directory is
/// renamed or removed later (as SQLite's own descriptor does). Owns it and closes it in `deinit`.
public final class WriteAheadLog: Sendable {
    /// The WAL's path (``SQLiteDatabase/writeAheadLogPath``).
    public let path: String
    private let descriptor: Int32
    private let flushCount = Atomic<Int>(0)

    /// The WAL at `path`; nil when it cannot be opened (it does not exist yet: then SQLite goes on flushing it).
    public init?(path: String) {
        // Only flushed, never written through this descriptor; no O_CREAT: SQLite makes the file.
        let opened = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard opened >= 0 else { return nil }
        self.path = path
        descriptor = opened
    }

    deinit {
        close(descriptor)
    }

    /// The flushes done so far (tests and statistics).
    public var flushes: Int { flushCount.load(ordering: .relaxed) }

    /// Flushes what has been written to the WAL so far to the disk.
    ///
    /// - Throws: ``SQLiteError`` (`SQLITE_IOERR_FSYNC`) when the flush fails.
    public func flush() throws {
        let code = Platform.syncData(descriptor)
        flushCount.add(1, ordering: .relaxed)
        guard code == 0 else {
            throw SQLiteError(
                code: SQLiteError.ioErrorCode, message: String(cString: strerror(errno)),
                operation: "flushing \(path) to the disk")
        }
    }
}
