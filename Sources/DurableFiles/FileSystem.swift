import Platform

/// The one file-system seam: every write, sync, truncate, rename and directory change of every module goes through
/// it, so a test can put a file layer underneath that fails (`ENOSPC`, short writes, `EIO` on `fdatasync`) or forgets
/// what was never synced (a power loss). ``SystemFileSystem`` is the real one.
///
/// Reads go through it too (``readFile(_:)``, ``listDirectory(_:)``); a layer that only intercepts writes keeps the
/// default implementations, which read what the kernel shows. No call follows a symbolic link where a file belongs.
/// ``SystemFileSystem`` reports every failure as a ``FileError`` naming the path and the call.
public protocol FileSystem: AnyObject {
    /// Opens `path` for writing; returns the descriptor (`O_CLOEXEC`, `O_NOFOLLOW`). A file it creates gets exactly
    /// `permissions`, whatever the umask.
    func open(_ path: String, _ mode: OpenMode, permissions: mode_t) throws -> Int32
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
    /// `close`.
    func close(_ descriptor: Int32)
    /// `rename`: atomically replaces `target`. Durable only once the directory is synced.
    func rename(_ source: String, to target: String) throws
    /// `link`: gives `source` the name `target` as well, failing (`EEXIST`) when anything has that name: a file
    /// put in place only if nobody else put one there first. Durable only once the directory is synced.
    func linkNew(_ source: String, as target: String) throws
    /// `unlink`, ignoring a missing file.
    func removeFile(_ path: String)
    /// `mkdir`, accepting one that exists. A directory it creates gets exactly `permissions`, whatever the umask.
    /// Durable only once the parent directory is synced.
    func makeDirectory(_ path: String, permissions: mode_t) throws
    /// `fsync` of a directory: makes its entries (new files, renames, new directories) durable.
    func syncDirectory(_ path: String) throws
    /// `rmdir` of an empty directory, accepting one that is not there.
    func removeDirectory(_ path: String) throws
    /// The whole regular file at `path` (not through a symbolic link).
    func readFile(_ path: String) throws -> [UInt8]
    /// The names in the directory at `path` (no dot entries), sorted.
    func listDirectory(_ path: String) throws -> [String]

    // Through a directory's descriptor: what a path names can be swapped for a link between a check and a write;
    // a directory held open cannot (see ``DirectoryHandle``). A layer that does not implement these gets them
    // through its path calls, with the directory's path (FileSystem+Directories.swift), so its faults still reach
    // them; ``SystemFileSystem`` makes them relative to the descriptor.

    /// ``open(_:_:permissions:)`` of `name` in `directory` (`openat`).
    func open(_ name: String, in directory: DirectoryHandle, _ mode: OpenMode, permissions: mode_t) throws -> Int32
    /// ``rename(_:to:)`` of `source` to `target`, both in `directory` (`renameat`).
    func rename(_ source: String, to target: String, in directory: DirectoryHandle) throws
    /// ``linkNew(_:as:)`` of `source` as `target`, both in `directory` (`linkat`).
    func linkNew(_ source: String, as target: String, in directory: DirectoryHandle) throws
    /// ``removeFile(_:)`` of `name` in `directory` (`unlinkat`), ignoring a missing file.
    func removeFile(_ name: String, in directory: DirectoryHandle)
    /// ``makeDirectory(_:permissions:)`` of `name` in `directory` (`mkdirat`), accepting one that exists.
    func makeDirectory(_ name: String, in directory: DirectoryHandle, permissions: mode_t) throws
    /// ``syncDirectory(_:)`` of the directory held (`fsync` of its descriptor).
    func syncDirectory(_ directory: DirectoryHandle) throws
    /// ``readFile(_:)`` of `name` in `directory`, refused unread past `limit` bytes.
    func readFile(_ name: String, in directory: DirectoryHandle, limit: Int) throws -> [UInt8]
}

extension FileSystem {
    /// Removes the empty directory at `path`, as `rmdir` does; a missing one is fine.
    public func removeDirectory(_ path: String) throws {
        guard rmdir(path) == 0 || errno == ENOENT else {
            throw FileError(path: path, operation: .removeDirectory, errno: errno)
        }
    }

    /// Reads what the kernel shows, as ``Files/readAll(_:)``.
    public func readFile(_ path: String) throws -> [UInt8] { try Files.readAll(path) }

    /// Lists what the kernel shows, as ``Files/list(_:)``.
    public func listDirectory(_ path: String) throws -> [String] { try Files.list(path) }

    /// Removes the tree at `path` (a directory and everything in it, or a file), never following a link: a link
    /// is removed as a link. Nothing there is fine.
    public func removeTree(_ path: String) throws {
        guard let info = try Files.entryStatus(path) else { return }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            removeFile(path)
            return
        }
        for name in try Files.list(path) { try removeTree(path + "/" + name) }
        try removeDirectory(path)
    }

    /// Writes all of `bytes` with as many ``write(_:_:path:)`` calls as it takes.
    public func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        var done = 0
        while done < bytes.count {
            done += try write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[done...]), path: path)
        }
    }

    /// Makes `path` and its parents (mode 0700), syncing each parent that gained an entry.
    public func makeDirectories(_ path: String) throws {
        if Files.exists(path) { return }
        let parent = Files.parent(of: path)
        if !parent.isEmpty && parent != path { try makeDirectories(parent) }
        try makeDirectory(path, permissions: 0o700)
        if !parent.isEmpty { try syncDirectory(parent) }
    }

    /// Replaces `path` atomically with `bytes`: write a temporary file beside it (an unpredictable name, created
    /// exclusively with `mode`), sync it, rename it over `path`, sync the directory. A crash at any step leaves the old
    /// file or the new one, never a missing or partial one. Without `syncingDirectory` the rename itself may be lost
    /// with the power (the old file stays): for what may lag.
    ///
    /// Crash points, in order: `replace.before-sync`, `replace.before-rename`, `replace.before-directory-sync`.
    public func replaceAtomically(
        _ path: String, with bytes: [UInt8], mode: mode_t = 0o600, syncingDirectory: Bool = true
    ) throws {
        let temporary = Files.temporaryPath(for: path)
        let fd = try open(temporary, .replace, permissions: mode)
        do {
            try bytes.withUnsafeBytes { try writeAll(fd, $0, path: temporary) }
            try CrashPoints.hit("replace.before-sync")
            try sync(fd, path: temporary)
        } catch {
            close(fd)
            removeFile(temporary)
            throw error
        }
        close(fd)
        try CrashPoints.hit("replace.before-rename")
        do {
            try rename(temporary, to: path)
        } catch {
            // Refused (a folder at `path`, a full disk's journal): the temporary must not stay behind.
            removeFile(temporary)
            throw error
        }
        try CrashPoints.hit("replace.before-directory-sync")
        if syncingDirectory { try syncDirectory(Files.parent(of: path)) }
    }

    /// Replaces `path` with `bytes` for a cache that may be lost: a temporary beside it (unpredictable name, created
    /// exclusively with `mode`), written and renamed over `path`, with no sync and no crash point. A crash leaves
    /// the old file, the new one, or (after a power loss) a partial one: only for what is checked before it is
    /// trusted (a signed checkpoint). A link or anything else at `path` is replaced, never written through.
    public func replaceUnsynced(_ path: String, with bytes: [UInt8], mode: mode_t = 0o600) throws {
        let temporary = Files.temporaryPath(for: path)
        let fd = try open(temporary, .replace, permissions: mode)
        do {
            try bytes.withUnsafeBytes { try writeAll(fd, $0, path: temporary) }
        } catch {
            close(fd)
            removeFile(temporary)
            throw error
        }
        close(fd)
        do {
            try rename(temporary, to: path)
        } catch {
            removeFile(temporary)
            throw error
        }
    }
}
