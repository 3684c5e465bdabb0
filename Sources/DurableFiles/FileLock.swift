#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock` on a lock file, held from init until ``unlock()`` or deinit. `flock` belongs to the open
/// file description, so closing another descriptor of the file elsewhere in the process does not drop it, and the
/// kernel frees it when a holder dies.
public final class FileLock {
    private var fd: Int32

    /// Opens (creating it, mode 0600, never through a symbolic link) the lock file at `path` and waits for the lock.
    ///
    /// - Throws: ``FileError`` naming the path (`open lock file` or `lock`).
    public init(path: String) throws {
        fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileError(path: path, operation: "open lock file", errno: errno) }
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(fd)
            throw FileError(path: path, operation: "lock", errno: code)
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
