#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file-system call that failed: which path, which call, and the system's error number.
///
/// Its ``description`` is the message a user sees: `<path>: <operation> failed: <the system's words>`, or, for a
/// symbolic link where a file belongs, that the link was refused (links are never followed in a data directory).
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file or directory the call was about.
    public let path: String
    /// The call, in words: `open`, `create`, `write`, `fdatasync`, `rename`, `mkdir`, `fsync directory`, ...
    public let operation: String
    /// The `errno` the call left.
    public let errno: Int32

    /// A failure of `operation` on `path` with `errno`.
    public init(path: String, operation: String, errno: Int32) {
        self.path = path
        self.operation = operation
        self.errno = errno
    }

    /// Whether the call was refused because `path` is a symbolic link (`O_NOFOLLOW`).
    public var isSymbolicLink: Bool { errno == ELOOP }

    /// What a user reads: the path, the call and the system's words for `errno`.
    public var description: String {
        if isSymbolicLink {
            return "\(path): \(operation) refused: it is a symbolic link, and links are not followed here"
        }
        return "\(path): \(operation) failed: \(String(cString: strerror(errno)))"
    }
}
