import Platform

/// A file-system call that failed: which path, which call, and the system's error number.
///
/// Its ``description`` is the message a user sees: `<path>: <operation> failed: <the system's words>`, or, for a
/// symbolic link where a file belongs, that the link was refused (links are never followed in a data directory).
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file or directory the call was about.
    public let path: String
    /// The call that failed.
    public let operation: Operation
    /// The `errno` the call left.
    public let errno: Int32
    /// What was found at `path` when the call was refused because it is not a regular file where a file belongs
    /// (`a directory`, `a named pipe (FIFO)`, ...), or nil.
    public let found: String?

    /// A failure of `operation` on `path` with `errno`.
    public init(path: String, operation: Operation, errno: Int32) {
        self.path = path
        self.operation = operation
        self.errno = errno
        self.found = nil
    }

    /// `operation` on `path` refused, nothing read or written there: the entry there is not a regular file (`mode`
    /// is its `st_mode`).
    public init(path: String, operation: Operation, notRegularFile mode: mode_t) {
        self.path = path
        self.operation = operation
        let type = mode & S_IFMT
        self.errno = type == S_IFDIR ? EISDIR : type == S_IFLNK ? ELOOP : EINVAL
        self.found = Files.kind(of: mode)
    }

    /// Whether a lock was not taken because another holds it (a ``FileLock`` not waiting).
    public var isHeldElsewhere: Bool { operation == .lock && errno == EWOULDBLOCK }

    /// Whether the call was refused because `path` is a symbolic link (`O_NOFOLLOW`).
    public var isSymbolicLink: Bool { errno == ELOOP }

    /// What a user reads: the path, the call and the system's words for `errno`.
    public var description: String {
        if let found, !isSymbolicLink {
            return
                "\(path): \(operation.rawValue) refused: it is \(found), not a regular file; nothing was read or written there"
        }
        if isSymbolicLink {
            return "\(path): \(operation.rawValue) refused: it is a symbolic link, and links are not followed here"
        }
        return "\(path): \(operation.rawValue) failed: \(String(cString: strerror(errno)))"
    }
}

extension FileError {
    /// A file-system call, in the words a user reads (its raw value): what a caller tells failures apart by.
    public enum Operation: String, Sendable, Equatable, CaseIterable {
        case open, create, read, write, stat, lstat, fstat, opendir, mkdir, chmod, truncate, rename, link, lock
        case fsync, fdatasync
        case openForAppend = "open for append"
        case openLockFile = "open lock file"
        case openDirectory = "open directory"
        case fsyncDirectory = "fsync directory"
        case removeDirectory = "remove directory"
    }
}
