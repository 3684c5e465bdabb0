import Platform

/// Why a data directory (or a directory in it) is not used: nothing is read through it or written in it.
///
/// Refused as `git` refuses a repository owned by someone else: another user who can write in a data directory can
/// plant links and files that a command would follow or trust. Each message names the directory and the command
/// that makes it safe.
public enum DataDirectoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The directory is a symbolic link: data directories are never reached through a link.
    case symbolicLink(path: String)
    /// Something other than a directory is where a directory belongs.
    case notADirectory(path: String, found: String)
    /// The directory belongs to another user (`owner`) than the one running (`user`).
    case ownedByAnotherUser(path: String, owner: UInt32, user: UInt32)
    /// Group or others may write in the directory (`mode`, its permission bits).
    case writableByOthers(path: String, mode: UInt32)

    /// The directory refused.
    public var path: String {
        switch self {
        case .symbolicLink(let path), .notADirectory(let path, _), .ownedByAnotherUser(let path, _, _),
            .writableByOthers(let path, _):
            return path
        }
    }

    public var description: String {
        switch self {
        case .symbolicLink(let path):
            return "\(path) is a symbolic link; a data directory and the directories in it are never reached "
                + "through a link, so nothing was read or written. Use the directory it points at instead, or "
                + "replace the link with that directory"
        case .notADirectory(let path, let found):
            return "\(path) is \(found), not a directory; nothing was read or written there"
        case .ownedByAnotherUser(let path, let owner, let user):
            return "\(path) is owned by another user (uid \(owner)), not by you (uid \(user)); refusing to use it, "
                + "as git refuses a repository owned by someone else. Run credit as its owner, or, if it is yours, "
                + "take it: chown -R \(user) \(path)"
        case .writableByOthers(let path, let mode):
            return "\(path) has mode \(DataDirectory.octal(mode)): group or others can write in it, and so could "
                + "put links or files there; refusing to use it. Make it yours alone: chmod 700 \(path)"
        }
    }
}

/// Checks and upkeep of a data directory as hostile input: a real directory (no link), owned by the user running,
/// writable by nobody else; the files the package writes there narrowed to 0600 and the directories to 0700
/// whatever the umask; temporary files a killed process left removed. No call follows a symbolic link.
public enum DataDirectory {
    /// Refuses `path` unless it is a directory (not a link to one), owned by the effective user, with no write
    /// permission for group or others. A missing `path` passes (there is nothing to trust yet).
    ///
    /// - Throws: ``DataDirectoryError``; ``FileError`` when `lstat` fails otherwise.
    public static func check(_ path: String) throws {
        guard let info = try Files.entryStatus(path) else { return }
        let type = info.st_mode & S_IFMT
        if type == S_IFLNK { throw DataDirectoryError.symbolicLink(path: path) }
        guard type == S_IFDIR else {
            throw DataDirectoryError.notADirectory(path: path, found: Files.kind(of: info.st_mode))
        }
        let user = geteuid()
        guard info.st_uid == user else {
            throw DataDirectoryError.ownedByAnotherUser(path: path, owner: info.st_uid, user: user)
        }
        guard info.st_mode & 0o022 == 0 else {
            throw DataDirectoryError.writableByOthers(path: path, mode: UInt32(info.st_mode & 0o7777))
        }
    }

    /// ``check(_:)`` of the directory held open (its owner and mode, by `fstat`): the directory opened, whatever its
    /// path names now. Opened without following a link, it is no link.
    public static func check(_ directory: DirectoryHandle) throws {
        var info = stat()
        guard fstat(directory.descriptor, &info) == 0 else {
            throw FileError(path: directory.path, operation: .fstat, errno: errno)
        }
        let user = geteuid()
        guard info.st_uid == user else {
            throw DataDirectoryError.ownedByAnotherUser(path: directory.path, owner: info.st_uid, user: user)
        }
        guard info.st_mode & 0o022 == 0 else {
            throw DataDirectoryError.writableByOthers(path: directory.path, mode: UInt32(info.st_mode & 0o7777))
        }
    }

    /// ``check(_:)`` of `path` and of each of its `subdirectories` (names) that exists.
    public static func check(_ path: String, subdirectories: [String]) throws {
        try check(path)
        for name in subdirectories { try check(path + "/" + name) }
    }

    /// Whether the effective user may make and remove entries in `path` (`faccessat` with `AT_EACCESS`): false on
    /// a read-only mount or a directory without write permission for this user.
    public static func isWritable(_ path: String) -> Bool {
        faccessat(AT_FDCWD, path, W_OK | X_OK, AT_EACCESS) == 0
    }

    /// Whether this process may write the file at `path` (a read-only mount included).
    public static func isWritableFile(_ path: String) -> Bool {
        faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0
    }

    /// Narrows the directory `path` to 0700 when it is wider, and each regular file in it (not a link, owned by the
    /// effective user) that `narrowsFile` accepts by name to 0600 when it is wider. Failures are ignored: this is
    /// upkeep, and what it could not narrow is no worse than before. (A secret found readable by others is refused
    /// where it is read, not narrowed here: it may have been read already.)
    public static func narrow(_ path: String, files narrowsFile: (String) -> Bool) {
        guard let info = try? Files.entryStatus(path), info.st_mode & S_IFMT == S_IFDIR,
            info.st_uid == geteuid()
        else { return }
        if info.st_mode & 0o077 != 0 { _ = chmod(path, 0o700) }
        guard let names = try? Files.list(path) else { return }
        for name in names where narrowsFile(name) {
            guard let fd = try? Files.openRegularForReading(path + "/" + name) else { continue }
            narrowFile(fd)
        }
    }

    /// ``narrow(_:files:)`` of the directory held open: through its descriptor, whatever its path names now.
    public static func narrow(_ directory: DirectoryHandle, files narrowsFile: (String) -> Bool) {
        var info = stat()
        guard fstat(directory.descriptor, &info) == 0, info.st_uid == geteuid() else { return }
        if info.st_mode & 0o077 != 0 { _ = fchmod(directory.descriptor, 0o700) }
        guard let names = try? directory.names() else { return }
        for name in names where narrowsFile(name) {
            guard let fd = try? directory.openRegularForReading(name) else { continue }
            narrowFile(fd)
        }
    }

    /// Narrows the open file `fd` to 0600 when it is the effective user's and wider; closes it.
    private static func narrowFile(_ fd: Int32) {
        var file = stat()
        if fstat(fd, &file) == 0, file.st_uid == geteuid(), file.st_mode & 0o077 != 0 {
            _ = fchmod(fd, 0o600)
        }
        close(fd)
    }

    /// Whether `name` is one of the package's temporary names: `.<name>.tmp-<hex>` (the atomic replace's), or the
    /// older `<name>.tmp-<pid>` and `<name>.tmp-<hex>`.
    public static func isTemporaryName(_ name: String) -> Bool {
        guard let dash = name.lastIndex(of: "-") else { return false }
        let stem = name[..<dash]
        let digits = name[name.index(after: dash)...]
        return stem.hasSuffix(".tmp") && stem.count > 4 && stem != "..tmp" && !digits.isEmpty && digits.count <= 16
            && digits.allSatisfy(\.isHexDigit)
    }

    /// Removes from the directory `path` the regular files with a temporary name (``isTemporaryName(_:)``) that
    /// `removes` accepts (given the name and the file's age in seconds): a killed process's leftovers. Never a
    /// link, a directory or anything else; never through a link. Returns the paths removed.
    @discardableResult
    public static func removeTemporaries(in path: String, where removes: (String, Int64) -> Bool) -> [String] {
        guard let names = try? Files.list(path) else { return [] }
        var removed: [String] = []
        let now = Int64(time(nil))
        for name in names where isTemporaryName(name) {
            let file = path + "/" + name
            guard let info = try? Files.entryStatus(file), info.st_mode & S_IFMT == S_IFREG else { continue }
            guard removes(name, now - modifiedSeconds(info)) else { continue }
            if unlink(file) == 0 { removed.append(file) }
        }
        return removed
    }

    /// The removal of leftover temporaries above, in the directory held open: listed, looked at and removed
    /// through its descriptor (`unlinkat`), whatever its path names now.
    @discardableResult
    public static func removeTemporaries(
        in directory: DirectoryHandle, where removes: (String, Int64) -> Bool
    ) -> [String] {
        guard let names = try? directory.names() else { return [] }
        var removed: [String] = []
        let now = Int64(time(nil))
        for name in names where isTemporaryName(name) {
            guard let info = try? directory.status(of: name), info.st_mode & S_IFMT == S_IFREG else { continue }
            guard removes(name, now - modifiedSeconds(info)) else { continue }
            if unlinkat(directory.descriptor, name, 0) == 0 { removed.append(directory.path(of: name)) }
        }
        return removed
    }

    /// When the entry `info` describes was last modified, in seconds since the epoch.
    private static func modifiedSeconds(_ info: stat) -> Int64 {
        #if canImport(Darwin)
            Int64(info.st_mtimespec.tv_sec)
        #else
            Int64(info.st_mtim.tv_sec)
        #endif
    }

    static func octal(_ mode: UInt32) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
