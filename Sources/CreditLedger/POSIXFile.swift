#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Small checked wrappers over the file system calls the ledger needs. Each failure names the path and the call.
enum POSIXFile {
    static func readAll(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw LedgerError.io(path: path, operation: "open", errno: errno) }
        defer { close(fd) }
        return try readAll(fd: fd, path: path, from: 0)
    }

    static func readAll(fd: Int32, path: String, from offset: Int64) throws -> [UInt8] {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw LedgerError.io(path: path, operation: "fstat", errno: errno) }
        let size = Int(info.st_size) - Int(offset)
        guard size > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: size)
        var done = 0
        try buffer.withUnsafeMutableBytes { raw in
            while done < size {
                let n = pread(fd, raw.baseAddress! + done, size - done, off_t(offset) + off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw LedgerError.io(path: path, operation: "read", errno: errno)
                }
                if n == 0 { break }
                done += n
            }
        }
        if done < size { buffer.removeLast(size - done) }
        return buffer
    }

    /// Writes all of `bytes` with as many `write` calls as it takes.
    static func writeAll(fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        var done = 0
        while done < bytes.count {
            let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw LedgerError.io(path: path, operation: "write", errno: errno)
            }
            done += n
        }
    }

    static func syncData(fd: Int32, path: String) throws {
        #if canImport(Darwin)
            guard fcntl(fd, F_FULLFSYNC) == 0 else {
                throw LedgerError.io(path: path, operation: "fsync", errno: errno)
            }
        #else
            guard fdatasync(fd) == 0 else { throw LedgerError.io(path: path, operation: "fdatasync", errno: errno) }
        #endif
    }

    static func syncDirectory(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw LedgerError.io(path: path, operation: "open directory", errno: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw LedgerError.io(path: path, operation: "fsync directory", errno: errno) }
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    static func size(_ path: String) throws -> Int64 {
        var info = stat()
        guard stat(path, &info) == 0 else { throw LedgerError.io(path: path, operation: "stat", errno: errno) }
        return Int64(info.st_size)
    }

    /// Makes `path` and its parents, fsyncing each parent that gained an entry.
    static func makeDirectories(_ path: String) throws {
        if exists(path) { return }
        let parent = (path as String).parentPath
        if !parent.isEmpty && parent != path { try makeDirectories(parent) }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw LedgerError.io(path: path, operation: "mkdir", errno: errno)
        }
        if !parent.isEmpty { try syncDirectory(parent) }
    }

    /// Replaces `path` atomically with `bytes`: tmp file, fsync, rename, directory fsync.
    static func replaceAtomically(_ path: String, with bytes: [UInt8], mode: mode_t = 0o644) throws {
        // One temporary name per process: two processes replacing one file must not rename each other's.
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw LedgerError.io(path: temporary, operation: "create", errno: errno) }
        do {
            try bytes.withUnsafeBytes { try writeAll(fd: fd, $0, path: temporary) }
            guard fsync(fd) == 0 else { throw LedgerError.io(path: temporary, operation: "fsync", errno: errno) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, path) == 0 else { throw LedgerError.io(path: path, operation: "rename", errno: errno) }
        try syncDirectory(path.parentPath)
    }

    /// Names in a directory (no dot entries), sorted.
    static func list(_ path: String) throws -> [String] {
        guard let dir = opendir(path) else { throw LedgerError.io(path: path, operation: "opendir", errno: errno) }
        defer { closedir(dir) }
        var names: [String] = []
        while let item = readdir(dir) {
            let name = withUnsafePointer(to: item.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}

extension String {
    /// The directory part of a path ("" for a bare name, "/" for a root file).
    var parentPath: String {
        guard let slash = lastIndex(of: "/") else { return "." }
        if slash == startIndex { return "/" }
        return String(self[..<slash])
    }

    /// The last component of a path.
    var lastPathComponent: String {
        guard let slash = lastIndex(of: "/") else { return self }
        return String(self[index(after: slash)...])
    }
}
