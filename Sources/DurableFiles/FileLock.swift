import Platform

/// An exclusive `flock` on a lock file, held from init until ``unlock()`` or deinit. `flock` belongs to the open
/// file description, so closing another descriptor of the file elsewhere in the process does not drop it, and the
/// kernel frees it when a holder dies.
public final class FileLock {
    private var fd: Int32

    /// Opens (creating it, mode 0600, never through a symbolic link) the lock file at `path` and waits for the lock,
    /// or, unless `waiting`, takes it only if no one holds it. Anything but a regular file at `path` is refused.
    ///
    /// - Throws: ``FileError`` naming the path (`open lock file` or `lock`); one whose ``FileError/isHeldElsewhere``
    ///   when not `waiting` and another holds the lock.
    public init(path: String, waiting: Bool = true) throws {
        fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileError(path: path, operation: .openLockFile, errno: errno) }
        try refuseUnlessRegular(path)
        try lock(path, waiting: waiting)
    }

    /// The lock for a reader that may not create anything: the lock file at `path` opened read-only when it is
    /// there (the same lock writers take), else the directory it would be in (no writer can hold the lock file
    /// then: none could make it). Never through a symbolic link.
    ///
    /// - Throws: ``FileError`` naming the path.
    public init(readingPath path: String) throws {
        fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        if fd >= 0 {
            try refuseUnlessRegular(path)
        } else {
            guard errno == ENOENT else { throw FileError(path: path, operation: .openLockFile, errno: errno) }
            let directory = Files.parent(of: path)
            fd = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { throw FileError(path: directory, operation: .openDirectory, errno: errno) }
        }
        try lock(path)
    }

    private func refuseUnlessRegular(_ path: String) throws {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            let mode = info.st_mode
            close(fd)
            fd = -1
            throw FileError(path: path, operation: .openLockFile, notRegularFile: mode)
        }
    }

    private func lock(_ path: String, waiting: Bool = true) throws {
        while flock(fd, waiting ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(fd)
            fd = -1
            throw FileError(path: path, operation: .lock, errno: code)
        }
    }

    /// Releases the lock (closing the descriptor); a second call does nothing.
    public func unlock() {
        guard fd >= 0 else { return }
        close(fd)  // releases the flock
        fd = -1
    }

    deinit { unlock() }
}
