import Platform

/// A directory held by an open descriptor, so that what is made, read and renamed in it lands in this directory
/// whatever its path names later.
///
/// A directory checked by its path and then written by its path can be swapped in between: another process that
/// renames a link to a directory elsewhere over it (`rename` with `RENAME_EXCHANGE`) sends the write there. Held by
/// its descriptor, the directory is the one opened, and every name is resolved in it with the `*at` calls
/// (`openat`, `renameat`, `linkat`, `unlinkat`, `mkdirat`, `fstatat`). A directory below another is opened from its
/// parent's descriptor with `O_NOFOLLOW | O_DIRECTORY`, so no directory on the way is ever a link.
///
/// The names given are single names in the directory (no `/`). ``path`` is kept for messages only: it is never used
/// to reach the directory again. Owns the descriptor and closes it in `deinit`.
public final class DirectoryHandle {
    /// The path the directory was opened by, for messages.
    public let path: String
    /// The open directory (`O_RDONLY | O_DIRECTORY`), for the `*at` calls.
    public let descriptor: Int32

    /// Opens the directory at `path`. Without `followingLink`, a symbolic link at `path` is refused (``FileError``
    /// with `ELOOP`); with it, a link the user named (a synced folder given as a link) is followed, once, here.
    ///
    /// - Throws: ``FileError`` naming `path` (`ENOENT` when nothing is there, `ENOTDIR` when it is not a directory).
    public init(opening path: String, followingLink: Bool = false) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (followingLink ? 0 : O_NOFOLLOW))
        guard fd >= 0 else { throw FileError(path: path, operation: .openDirectory, errno: errno) }
        self.path = path
        self.descriptor = fd
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The path of `name` in this directory, for messages.
    public func path(of name: String) -> String {
        path.hasSuffix("/") ? path + name : path + "/" + name
    }

    /// Opens the directory `name` in this one, never through a link: a link there is refused (``FileError`` with
    /// `ELOOP`), anything else that is not a directory too (`ENOTDIR`), and nothing there is `ENOENT`.
    public func directory(_ name: String) throws -> DirectoryHandle {
        try Self.checkName(name, in: self)
        let fd = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: path(of: name), operation: .openDirectory, errno: errno) }
        return DirectoryHandle(path: path(of: name), descriptor: fd)
    }

    /// The `lstat` of `name` in this directory (a link is described, not followed), or nil when nothing is there.
    public func status(of name: String) throws -> stat? {
        try Self.checkName(name, in: self)
        var info = stat()
        guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return nil }
            throw FileError(path: path(of: name), operation: .lstat, errno: errno)
        }
        return info
    }

    /// The size of the regular file `name` here, not through a link: anything else there is refused (``FileError``
    /// with ``FileError/found``), and so is a missing file.
    public func regularFileSize(_ name: String) throws -> Int64 {
        guard let info = try status(of: name) else {
            throw FileError(path: path(of: name), operation: .lstat, errno: ENOENT)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw FileError(path: path(of: name), operation: .open, notRegularFile: info.st_mode)
        }
        return Int64(info.st_size)
    }

    /// Whether anything (a link included) has the name `name` here.
    public func contains(_ name: String) -> Bool {
        (try? status(of: name)) != nil
    }

    /// The names in this directory (no dot entries), sorted: the directory opened, whatever its path names now.
    public func names() throws -> [String] {
        // A descriptor of its own ("." is never a link): a listing does not move the shared one's position.
        let fd = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0, let stream = fdopendir(fd) else {
            let code = errno
            if fd >= 0 { close(fd) }
            throw FileError(path: path, operation: .opendir, errno: code)
        }
        defer { closedir(stream) }
        return Files.names(in: stream)
    }

    /// Opens the regular file `name` here for reading, never through a link and never waiting on a FIFO; anything
    /// but a regular file is refused (``FileError/found``). The caller closes the descriptor.
    public func openRegularForReading(_ name: String) throws -> Int32 {
        try Self.checkName(name, in: self)
        let fd = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: path(of: name), operation: .open, errno: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw FileError(path: path(of: name), operation: .fstat, errno: code)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw FileError(path: path(of: name), operation: .read, notRegularFile: info.st_mode)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// The whole regular file `name` here; refused unread past `limit` bytes (``FileError`` with `EFBIG`).
    public func readAll(_ name: String, limit: Int = Int.max) throws -> [UInt8] {
        let fd = try openRegularForReading(name)
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError(path: path(of: name), operation: .fstat, errno: errno) }
        if Int64(info.st_size) > Int64(limit) { throw FileError(path: path(of: name), operation: .read, errno: EFBIG) }
        return try Files.readAll(fd: fd, path: path(of: name), from: 0)
    }

    /// `fsync` of the directory opened: makes its entries durable.
    public func sync() throws {
        guard fsync(descriptor) == 0 else { throw FileError(path: path, operation: .fsyncDirectory, errno: errno) }
    }

    /// Refuses a name that is not one entry of a directory: a `/` in it would reach past the directory.
    static func checkName(_ name: String, in directory: DirectoryHandle) throws {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/") else {
            throw FileError(path: directory.path(of: name), operation: .open, errno: EINVAL)
        }
    }
}
