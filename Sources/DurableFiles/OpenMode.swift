import Platform

/// How ``FileSystem/open(_:_:permissions:)`` opens a file for writing. No mode follows a symbolic link: a link where
/// a file belongs is refused (`ELOOP`, see ``FileError/isSymbolicLink``).
public enum OpenMode: Sendable, Equatable {
    /// `O_WRONLY | O_APPEND`: the file must exist.
    case append
    /// `O_WRONLY | O_APPEND | O_CREAT`: created empty when missing (a new ledger file).
    case createOrAppend
    /// `O_WRONLY | O_CREAT | O_EXCL`: a new temporary file about to be renamed over another. Fails when anything
    /// (a file, a planted link) already has the name.
    case replace

    /// The `open` flags of the mode, with `O_NOFOLLOW | O_CLOEXEC`.
    public var flags: Int32 {
        let common = O_NOFOLLOW | O_CLOEXEC
        switch self {
        case .append: return O_WRONLY | O_APPEND | common
        case .createOrAppend: return O_WRONLY | O_APPEND | O_CREAT | common
        case .replace: return O_WRONLY | O_CREAT | O_EXCL | common
        }
    }
}
