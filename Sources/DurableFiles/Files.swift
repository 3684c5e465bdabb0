import Platform

/// Checked calls straight to the system, for code that holds no ``FileSystem``: reads, syncs, listings and path
/// arithmetic. The writes here (``makeDirectories(_:)``, ``replaceAtomically(_:with:mode:)``) are
/// ``SystemFileSystem``'s, so there is one routine of each. Every failure is a ``FileError`` naming the path and the
/// call; no call follows a symbolic link where a file belongs.
public enum Files {
    /// The whole regular file at `path`; a link, a directory or a device there is refused.
    public static func readAll(_ path: String) throws -> [UInt8] {
        try readAll(path, checkingMode: { _ in })
    }

    /// The whole regular file at `path`, after `checkMode` accepted its permission bits, read from the open
    /// descriptor (no check-then-open race). What `checkMode` throws is thrown as it is.
    public static func readAll(_ path: String, checkingMode checkMode: (mode_t) throws -> Void) throws -> [UInt8] {
        try readAll(path, checkingMode: checkMode, sizeCheck: { _ in })
    }

    /// ``readAll(_:checkingMode:)``, with the open file's size shown to `sizeCheck` before anything is read.
    private static func readAll(
        _ path: String, checkingMode checkMode: (mode_t) throws -> Void, sizeCheck: (Int64) throws -> Void
    ) throws -> [UInt8] {
        // O_NONBLOCK: opening a FIFO planted at the name returns at once (and is refused below) instead of waiting.
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: path, operation: .open, errno: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError(path: path, operation: .fstat, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw FileError(path: path, operation: .read, notRegularFile: info.st_mode)
        }
        try checkMode(info.st_mode & 0o7777)
        try sizeCheck(Int64(info.st_size))
        return try readAll(fd: fd, path: path, from: 0)
    }

    /// The whole regular file at `path`, refused without reading it when it holds more than `limit` bytes (a small
    /// file a sync tool or someone else could make as large as the disk: a head, an account file): ``FileError``
    /// with `EFBIG`.
    public static func readAll(_ path: String, limit: Int) throws -> [UInt8] {
        try readAll(path, checkingMode: { _ in }, limit: limit)
    }

    /// ``readAll(_:checkingMode:)`` refused, without reading, past `limit` bytes.
    static func readAll(_ path: String, checkingMode checkMode: (mode_t) throws -> Void, limit: Int) throws
        -> [UInt8]
    {
        try readAll(
            path, checkingMode: checkMode,
            sizeCheck: { size in
                if size > Int64(limit) { throw FileError(path: path, operation: .read, errno: EFBIG) }
            })
    }

    /// What the open file holds from `offset` to its end (as `fstat` gives it now).
    public static func readAll(fd: Int32, path: String, from offset: Int64) throws -> [UInt8] {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError(path: path, operation: .fstat, errno: errno) }
        let size = Int(info.st_size) - Int(offset)
        guard size > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: size)
        var done = 0
        try buffer.withUnsafeMutableBytes { raw in
            while done < size {
                let n = pread(fd, raw.baseAddress! + done, size - done, off_t(offset) + off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw FileError(path: path, operation: .read, errno: errno)
                }
                if n == 0 { break }
                done += n
            }
        }
        if done < size { buffer.removeLast(size - done) }
        return buffer
    }

    /// Writes all of `bytes` to an open descriptor with as many `write` calls as it takes (on one left non-blocking
    /// by whoever shares it, a pipe or a terminal, waiting until it takes more).
    public static func writeAll(fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        var done = 0
        while done < bytes.count {
            let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, -1)
                    continue
                }
                throw FileError(path: path, operation: .write, errno: errno)
            }
            done += n
        }
    }

    /// `fdatasync` (on Darwin `F_FULLFSYNC`, since its `fsync` does not reach the platter).
    public static func syncData(fd: Int32, path: String) throws {
        guard Platform.syncData(fd) == 0 else { throw FileError(path: path, operation: .fdatasync, errno: errno) }
    }

    /// `fsync` of a directory: makes its entries (new files, renames, new directories) durable.
    public static func syncDirectory(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: path, operation: .openDirectory, errno: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw FileError(path: path, operation: .fsyncDirectory, errno: errno) }
    }

    /// What an entry of `mode` (its `st_mode`) is, in words: `a regular file`, `a directory`, `a symbolic link`,
    /// `a named pipe (FIFO)`, `a socket`, `a device`.
    public static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a directory"
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a named pipe (FIFO)"
        case S_IFSOCK: return "a socket"
        default: return "a device"
        }
    }

    /// The `lstat` of `path` (a link is described, not followed), or nil when nothing is there.
    public static func entryStatus(_ path: String) throws -> stat? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw FileError(path: path, operation: .lstat, errno: errno)
        }
        return info
    }

    /// The size of the regular file at `path`, not through a link: anything else there is refused (``FileError``
    /// with ``FileError/found``), and so is a missing file.
    public static func regularFileSize(_ path: String) throws -> Int64 {
        guard let info = try entryStatus(path) else { throw FileError(path: path, operation: .lstat, errno: ENOENT) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw FileError(path: path, operation: .open, notRegularFile: info.st_mode)
        }
        return Int64(info.st_size)
    }

    /// Opens the regular file at `path` for reading, never through a link and never waiting on a FIFO; anything
    /// but a regular file there is refused (``FileError/found``).
    public static func openRegularForReading(_ path: String) throws -> Int32 {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: path, operation: .open, errno: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw FileError(path: path, operation: .fstat, errno: code)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw FileError(path: path, operation: .open, notRegularFile: info.st_mode)
        }
        return fd
    }

    /// Whether anything is at `path`.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// The size of the file at `path`.
    public static func size(_ path: String) throws -> Int64 {
        var info = stat()
        guard stat(path, &info) == 0 else { throw FileError(path: path, operation: .stat, errno: errno) }
        return Int64(info.st_size)
    }

    /// Makes `path` and its parents (mode 0700), syncing each parent that gained an entry.
    public static func makeDirectories(_ path: String) throws {
        try SystemFileSystem().makeDirectories(path)
    }

    /// Replaces `path` atomically and durably with `bytes` (mode `mode`), as
    /// ``FileSystem/replaceAtomically(_:with:mode:syncingDirectory:)``.
    public static func replaceAtomically(_ path: String, with bytes: [UInt8], mode: mode_t = 0o600) throws {
        try SystemFileSystem().replaceAtomically(path, with: bytes, mode: mode)
    }

    /// Names in a directory (no dot entries), sorted.
    public static func list(_ path: String) throws -> [String] {
        guard let dir = opendir(path) else { throw FileError(path: path, operation: .opendir, errno: errno) }
        defer { closedir(dir) }
        return names(in: dir)
    }

    /// The names an open directory stream gives (no dot entries), sorted.
    static func names(in dir: OpaquePointer) -> [String] {
        var names: [String] = []
        while let item = readdir(dir) {
            let name = withUnsafePointer(to: item.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
