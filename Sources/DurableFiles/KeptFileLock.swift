import Platform

/// An exclusive `flock` on a lock file taken and released many times through one descriptor, kept open between
/// holds: opening and closing the lock file on every change cost a path walk, a new open file and its release each
/// time, a fifth of what a durable append adds to its `write` and `fdatasync`.
///
/// A descriptor kept open may name a file that is no longer the one at the path (removed, or replaced by a copy
/// restored from a backup): another process opening the path would lock the other file, and both would think
/// they hold the lock. So after each `flock` the path is looked at again (`lstat`, never through a link) and must
/// still name the locked file (same device and inode); when it does not, the lock is dropped and the file at the
/// path opened and locked instead. The descriptor is closed in `deinit`; `flock` belongs to it, so the kernel
/// frees a lock whose holder dies.
public final class KeptFileLock {
    /// The lock file.
    public let path: String
    /// The directory held open and the name in it, when the lock is reached through a descriptor.
    private let directory: (handle: DirectoryHandle, name: String)?
    private var fd: Int32 = -1
    private var device: UInt64 = 0
    private var inode: UInt64 = 0
    /// Whether the lock is held now.
    public private(set) var isHeld = false

    /// A lock on the file at `path`; nothing is opened until ``lock()``.
    public init(path: String) {
        self.path = path
        self.directory = nil
    }

    /// A lock on the file `name` in the directory held open: it is opened and looked at again through the
    /// directory's descriptor, so a directory swapped for a link meanwhile never gets a lock file made in it.
    public init(name: String, in directory: DirectoryHandle) {
        self.path = directory.path(of: name)
        self.directory = (directory, name)
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Waits for the lock, opening the lock file (creating it, mode 0600, never through a symbolic link) the first
    /// time and whenever the path has come to name another file. Anything but a regular file at the path is
    /// refused.
    ///
    /// - Throws: ``FileError`` naming the path (`open lock file` or `lock`).
    public func lock() throws {
        precondition(!isHeld, "KeptFileLock.lock() while it is held")
        // Each turn is a replacement of the file by someone else between our open and our lstat: a few at most.
        for _ in 0..<64 {
            if fd < 0 { try openFile() }
            while flock(fd, LOCK_EX) != 0 {
                if errno == EINTR { continue }
                let code = errno
                drop()
                throw FileError(path: path, operation: .lock, errno: code)
            }
            if try pathNamesLockedFile() {
                isHeld = true
                return
            }
            // Unlocked by the close: the file at the path is opened and locked on the next turn.
            drop()
        }
        throw FileError(path: path, operation: .lock, errno: EAGAIN)
    }

    /// Releases the lock, keeping the descriptor for the next ``lock()``; does nothing when it is not held.
    public func unlock() {
        guard isHeld else { return }
        isHeld = false
        // A failed LOCK_UN leaves the lock held: closing the descriptor releases it for certain.
        if flock(fd, LOCK_UN) != 0 { drop() }
    }

    private func openFile() throws {
        let flags = O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
        let opened =
            directory.map { openat($0.handle.descriptor, $0.name, flags, 0o600) } ?? open(path, flags, 0o600)
        guard opened >= 0 else { throw FileError(path: path, operation: .openLockFile, errno: errno) }
        var info = stat()
        guard fstat(opened, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            let mode = info.st_mode
            close(opened)
            throw FileError(path: path, operation: .openLockFile, notRegularFile: mode)
        }
        fd = opened
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// Whether `path` (not followed if a link) is still the regular file the descriptor is open on.
    private func pathNamesLockedFile() throws -> Bool {
        var info = stat()
        let found =
            directory.map { fstatat($0.handle.descriptor, $0.name, &info, AT_SYMLINK_NOFOLLOW) } ?? lstat(path, &info)
        guard found == 0 else {
            if errno == ENOENT { return false }
            let code = errno
            drop()
            throw FileError(path: path, operation: .openLockFile, errno: code)
        }
        return info.st_mode & S_IFMT == S_IFREG && UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    /// Closes the descriptor (releasing the lock if it was held).
    private func drop() {
        if fd >= 0 { close(fd) }
        fd = -1
        isHeld = false
    }
}
