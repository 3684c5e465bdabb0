#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How ``LedgerFileSystem/open(_:_:permissions:)`` opens a file for writing.
public enum LedgerOpenMode: Sendable, Equatable {
    /// `O_WRONLY | O_APPEND`: the file must exist.
    case append
    /// `O_WRONLY | O_APPEND | O_CREAT`: created empty when missing (a new ledger file).
    case createOrAppend
    /// `O_WRONLY | O_CREAT | O_TRUNC`: a temporary file about to be renamed over another.
    case replace
}

/// The file-system calls the ledger makes to change files: every write, sync, truncate, rename and directory
/// change goes through this seam, so the reliability suites can put a file layer underneath that fails
/// (`ENOSPC`, short writes, `EIO` on `fdatasync`) or forgets what was never synced (a power loss).
///
/// Reads do not go through it: they see what the kernel would show, which is what a test layer passes through.
/// Every failure is a ``LedgerError/io(path:operation:errno:)`` naming the path and the call.
public protocol LedgerFileSystem: AnyObject {
    /// Opens `path` for writing; returns the descriptor (`O_CLOEXEC`).
    func open(_ path: String, _ mode: LedgerOpenMode, permissions: mode_t) throws -> Int32
    /// One `write` call: returns how many bytes were written, which may be fewer than given.
    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws -> Int
    /// The size of the open file.
    func size(_ descriptor: Int32, path: String) throws -> Int64
    /// Cuts the open file to `length` bytes.
    func truncate(_ descriptor: Int32, to length: Int64, path: String) throws
    /// `fdatasync` (on Darwin `F_FULLFSYNC`): the data and the size are on disk when it returns.
    func syncData(_ descriptor: Int32, path: String) throws
    /// `fsync`.
    func sync(_ descriptor: Int32, path: String) throws
    func close(_ descriptor: Int32)
    /// `rename`: atomically replaces `target`. Durable only once the directory is synced.
    func rename(_ source: String, to target: String) throws
    /// `unlink`, ignoring a missing file.
    func removeFile(_ path: String)
    /// `mkdir`, accepting one that exists. Durable only once the parent directory is synced.
    func makeDirectory(_ path: String, permissions: mode_t) throws
    /// `fsync` of a directory: makes its entries (new files, renames, new directories) durable.
    func syncDirectory(_ path: String) throws
}

extension LedgerFileSystem {
    /// Writes all of `bytes` with as many ``write(_:_:path:)`` calls as it takes.
    func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        var done = 0
        while done < bytes.count {
            done += try write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[done...]), path: path)
        }
    }

    /// Makes `path` and its parents, syncing each parent that gained an entry.
    func makeDirectories(_ path: String) throws {
        if POSIXFile.exists(path) { return }
        let parent = path.parentPath
        if !parent.isEmpty && parent != path { try makeDirectories(parent) }
        try makeDirectory(path, permissions: 0o700)
        if !parent.isEmpty { try syncDirectory(parent) }
    }

    /// Replaces `path` atomically with `bytes`: write a temporary file, sync it, rename it over `path`, sync the
    /// directory. A crash at any step leaves the old file or the new one, never a missing or partial one. Without
    /// `syncingDirectory` the rename itself may be lost with the power (the old file stays): for what may lag.
    func replaceAtomically(
        _ path: String, with bytes: [UInt8], mode: mode_t = 0o644, syncingDirectory: Bool = true
    ) throws {
        // One temporary name per process: two processes replacing one file must not rename each other's.
        let temporary = path + ".tmp-\(getpid())"
        let fd = try open(temporary, .replace, permissions: mode)
        do {
            try bytes.withUnsafeBytes { try writeAll(fd, $0, path: temporary) }
            try FaultInjection.hit("replace.before-sync")
            try sync(fd, path: temporary)
        } catch {
            close(fd)
            removeFile(temporary)
            throw error
        }
        close(fd)
        try FaultInjection.hit("replace.before-rename")
        try rename(temporary, to: path)
        try FaultInjection.hit("replace.before-directory-sync")
        if syncingDirectory { try syncDirectory(path.parentPath) }
    }
}

/// The real file system, through POSIX calls.
public final class POSIXFileSystem: LedgerFileSystem {
    public init() {}

    public func open(_ path: String, _ mode: LedgerOpenMode, permissions: mode_t) throws -> Int32 {
        let flags: Int32
        switch mode {
        case .append: flags = O_WRONLY | O_APPEND | O_CLOEXEC
        case .createOrAppend: flags = O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC
        case .replace: flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC
        }
        let fd = systemOpen(path, flags, permissions)
        guard fd >= 0 else {
            throw LedgerError.io(path: path, operation: mode == .append ? "open for append" : "create", errno: errno)
        }
        return fd
    }

    public func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws -> Int {
        guard !bytes.isEmpty else { return 0 }
        while true {
            let n = systemWrite(descriptor, bytes.baseAddress!, bytes.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw LedgerError.io(path: path, operation: "write", errno: errno)
        }
    }

    public func size(_ descriptor: Int32, path: String) throws -> Int64 {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw LedgerError.io(path: path, operation: "fstat", errno: errno) }
        return Int64(info.st_size)
    }

    public func truncate(_ descriptor: Int32, to length: Int64, path: String) throws {
        guard ftruncate(descriptor, off_t(length)) == 0 else {
            throw LedgerError.io(path: path, operation: "truncate", errno: errno)
        }
    }

    public func syncData(_ descriptor: Int32, path: String) throws {
        try POSIXFile.syncData(fd: descriptor, path: path)
    }

    public func sync(_ descriptor: Int32, path: String) throws {
        guard fsync(descriptor) == 0 else { throw LedgerError.io(path: path, operation: "fsync", errno: errno) }
    }

    public func close(_ descriptor: Int32) {
        _ = systemClose(descriptor)
    }

    public func rename(_ source: String, to target: String) throws {
        guard systemRename(source, target) == 0 else {
            throw LedgerError.io(path: target, operation: "rename", errno: errno)
        }
    }

    public func removeFile(_ path: String) {
        _ = unlink(path)
    }

    public func makeDirectory(_ path: String, permissions: mode_t) throws {
        if mkdir(path, permissions) != 0 && errno != EEXIST {
            throw LedgerError.io(path: path, operation: "mkdir", errno: errno)
        }
    }

    public func syncDirectory(_ path: String) throws {
        try POSIXFile.syncDirectory(path)
    }
}

// The system calls under names the methods above do not shadow.
private func systemOpen(_ path: String, _ flags: Int32, _ permissions: mode_t) -> Int32 {
    open(path, flags, permissions)
}
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
private func systemRename(_ source: String, _ target: String) -> Int32 { rename(source, target) }
