import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The WAL file of a database, flushed to the disk by ``GroupCommit`` itself, outside the database lock.
///
/// With `synchronous=FULL`, SQLite flushes the WAL inside `COMMIT`, while the one connection is held: every other
/// request waits for the disk. With `synchronous=NORMAL` a commit only writes its frames, and this flush (an
/// `fdatasync` of the same file, through a descriptor of its own) makes it durable, the same as FULL would have,
/// while the next batch already runs: the frames of every commit made before the flush began are on the disk when
/// it returns. SQLite still flushes the WAL before each checkpoint and the database after it, so a checkpoint
/// never moves frames that are not on the disk yet.
///
/// Owns its descriptor and closes it in `deinit`.
public final class WriteAheadLog: Sendable {
    /// The WAL's path (``SQLiteDatabase/writeAheadLogPath``).
    public let path: String
    /// The descriptor, opened at the first flush (the WAL may not exist before the first write); -1 until then.
    private let descriptor = Mutex<Int32>(-1)
    private let flushCount = Atomic<Int>(0)

    /// The flushes done so far (tests and statistics).
    public var flushes: Int { flushCount.load(ordering: .relaxed) }

    /// The WAL at `path`.
    public init(path: String) {
        self.path = path
    }

    deinit {
        let fd = descriptor.withLock { $0 }
        if fd >= 0 { close(fd) }
    }

    /// Flushes what has been written to the WAL so far to the disk.
    ///
    /// - Throws: ``SQLiteError`` (`SQLITE_IOERR`) when the file cannot be opened or the flush fails.
    public func flush() throws {
        let fd = try openedDescriptor()
        #if canImport(Glibc)
            let code = fdatasync(fd)
        #else
            let code = fsync(fd)
        #endif
        flushCount.add(1, ordering: .relaxed)
        guard code == 0 else {
            throw SQLiteError(
                code: SQLiteError.ioErrorCode, message: String(cString: strerror(errno)),
                operation: "flushing \(path) to the disk")
        }
    }

    private func openedDescriptor() throws -> Int32 {
        try descriptor.withLock { fd throws(SQLiteError) -> Int32 in
            if fd >= 0 { return fd }
            // Only flushed, never written through this descriptor; no O_CREAT: SQLite made the file.
            let opened = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard opened >= 0 else {
                throw SQLiteError(
                    code: SQLiteError.ioErrorCode, message: String(cString: strerror(errno)),
                    operation: "opening \(path) to flush it")
            }
            fd = opened
            return opened
        }
    }
}
