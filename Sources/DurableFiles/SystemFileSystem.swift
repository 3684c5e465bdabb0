import Platform

/// The real file system, through POSIX calls. Stateless: make one wherever one is needed.
public final class SystemFileSystem: FileSystem {
    public init() {}

    public func open(_ path: String, _ mode: OpenMode, permissions: mode_t) throws -> Int32 {
        try open(path, at: AT_FDCWD, shown: path, mode, permissions: permissions)
    }

    public func open(_ name: String, in directory: DirectoryHandle, _ mode: OpenMode, permissions: mode_t) throws
        -> Int32
    {
        try DirectoryHandle.checkName(name, in: directory)
        return try open(name, at: directory.descriptor, shown: directory.path(of: name), mode, permissions: permissions)
    }

    /// Opens `name` relative to the directory descriptor `base` (`AT_FDCWD`: a path), said as `shown` in errors.
    private func open(_ name: String, at base: Int32, shown: String, _ mode: OpenMode, permissions: mode_t) throws
        -> Int32
    {
        let operation: FileError.Operation = mode == .append ? .openForAppend : .create
        // A file this call creates gets `permissions` by fchmod, so the umask can neither widen nor narrow it. To
        // know whether it created the file, a create-or-append first tries to create it exclusively.
        // O_NONBLOCK: a FIFO planted at the name is refused at once instead of waiting for a reader.
        let flags = mode == .replace ? mode.flags : mode.flags | O_NONBLOCK | O_NOCTTY
        var fd = openat(base, name, mode == .createOrAppend ? flags | O_EXCL : flags, permissions)
        var created = mode != .append && fd >= 0
        if fd < 0 && mode == .createOrAppend && errno == EEXIST {
            fd = openat(base, name, flags, permissions)
            created = false
        }
        guard fd >= 0 else {
            let code = errno
            // A directory, a FIFO without a reader, a device: said as what it is.
            var info = stat()
            if code != ELOOP && code != EEXIST, fstatat(base, name, &info, AT_SYMLINK_NOFOLLOW) == 0,
                info.st_mode & S_IFMT != S_IFREG
            {
                throw FileError(path: shown, operation: operation, notRegularFile: info.st_mode)
            }
            throw FileError(path: shown, operation: operation, errno: code)
        }
        if mode != .replace {
            try refuseUnlessRegular(fd, path: shown, operation: operation)
        }
        if created && fchmod(fd, permissions) != 0 {
            let code = errno
            _ = systemClose(fd)
            _ = unlinkat(base, name, 0)
            throw FileError(path: shown, operation: .chmod, errno: code)
        }
        return fd
    }

    /// Closes `fd` and throws unless it is open on a regular file; clears the `O_NONBLOCK` it was opened with.
    private func refuseUnlessRegular(_ fd: Int32, path: String, operation: FileError.Operation) throws {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            _ = systemClose(fd)
            throw FileError(path: path, operation: .fstat, errno: code)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            _ = systemClose(fd)
            throw FileError(path: path, operation: operation, notRegularFile: info.st_mode)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    }

    public func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws -> Int {
        guard !bytes.isEmpty else { return 0 }
        while true {
            let n = systemWrite(descriptor, bytes.baseAddress!, bytes.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw FileError(path: path, operation: .write, errno: errno)
        }
    }

    public func size(_ descriptor: Int32, path: String) throws -> Int64 {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileError(path: path, operation: .fstat, errno: errno) }
        return Int64(info.st_size)
    }

    public func truncate(_ descriptor: Int32, to length: Int64, path: String) throws {
        guard ftruncate(descriptor, off_t(length)) == 0 else {
            throw FileError(path: path, operation: .truncate, errno: errno)
        }
    }

    public func syncData(_ descriptor: Int32, path: String) throws {
        try Files.syncData(fd: descriptor, path: path)
    }

    public func sync(_ descriptor: Int32, path: String) throws {
        guard fsync(descriptor) == 0 else { throw FileError(path: path, operation: .fsync, errno: errno) }
    }

    public func close(_ descriptor: Int32) {
        _ = systemClose(descriptor)
    }

    public func rename(_ source: String, to target: String) throws {
        guard systemRename(source, target) == 0 else {
            throw FileError(path: target, operation: .rename, errno: errno)
        }
    }

    public func linkNew(_ source: String, as target: String) throws {
        guard link(source, target) == 0 else { throw FileError(path: target, operation: .link, errno: errno) }
    }

    public func removeFile(_ path: String) {
        _ = unlink(path)
    }

    public func makeDirectory(_ path: String, permissions: mode_t) throws {
        if mkdir(path, permissions) != 0 {
            guard errno == EEXIST else { throw FileError(path: path, operation: .mkdir, errno: errno) }
            return
        }
        // mkdir applies the umask; the directory gets exactly `permissions` (0700 for a data directory).
        guard chmod(path, permissions) == 0 else { throw FileError(path: path, operation: .chmod, errno: errno) }
    }

    public func syncDirectory(_ path: String) throws {
        try Files.syncDirectory(path)
    }

    // MARK: through a directory's descriptor

    public func rename(_ source: String, to target: String, in directory: DirectoryHandle) throws {
        try DirectoryHandle.checkName(source, in: directory)
        try DirectoryHandle.checkName(target, in: directory)
        guard renameat(directory.descriptor, source, directory.descriptor, target) == 0 else {
            throw FileError(path: directory.path(of: target), operation: .rename, errno: errno)
        }
    }

    public func linkNew(_ source: String, as target: String, in directory: DirectoryHandle) throws {
        try DirectoryHandle.checkName(source, in: directory)
        try DirectoryHandle.checkName(target, in: directory)
        guard linkat(directory.descriptor, source, directory.descriptor, target, 0) == 0 else {
            throw FileError(path: directory.path(of: target), operation: .link, errno: errno)
        }
    }

    public func removeFile(_ name: String, in directory: DirectoryHandle) {
        guard (try? DirectoryHandle.checkName(name, in: directory)) != nil else { return }
        _ = unlinkat(directory.descriptor, name, 0)
    }

    public func makeDirectory(_ name: String, in directory: DirectoryHandle, permissions: mode_t) throws {
        try DirectoryHandle.checkName(name, in: directory)
        let shown = directory.path(of: name)
        if mkdirat(directory.descriptor, name, permissions) != 0 {
            guard errno == EEXIST else { throw FileError(path: shown, operation: .mkdir, errno: errno) }
            return
        }
        // mkdirat applies the umask; the directory gets exactly `permissions`, set through a descriptor of the
        // directory made (a link put in its place since is refused, never followed).
        let made = try directory.directory(name)
        guard fchmod(made.descriptor, permissions) == 0 else {
            throw FileError(path: shown, operation: .chmod, errno: errno)
        }
    }

    public func syncDirectory(_ directory: DirectoryHandle) throws {
        try directory.sync()
    }
}

// The system calls under names the methods above do not shadow.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
private func systemRename(_ source: String, _ target: String) -> Int32 { rename(source, target) }
