#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Durable whole-file writes and reads with POSIX calls, as ledger-durability.md rule 7 describes:
/// write `name.tmp…`, fsync it, rename it over the target, fsync the directory.
enum FileIO {
    /// Writes `bytes` to `path` atomically and durably; the file is created with `mode` and never widened later.
    ///
    /// A crash leaves either the old file or the new one, never a partial file. The temporary name is unique, so
    /// two writers cannot interleave into one temporary file.
    static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t) throws {
        let temporaryPath = "\(path).tmp-\(Hex.encode(SecureRandom.bytes(8)))"
        // O_EXCL: never reuse (or follow a symlink planted at) an existing name; the mode applies from creation.
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        guard descriptor >= 0 else {
            throw posixError("cannot create \(temporaryPath)")
        }
        var renamed = false
        defer {
            if !renamed {
                unlink(temporaryPath)
            }
        }
        do {
            try writeAll(bytes, to: descriptor, path: temporaryPath)
            guard fsync(descriptor) == 0 else {
                throw posixError("fsync of \(temporaryPath) failed")
            }
        } catch {
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else {
            throw posixError("close of \(temporaryPath) failed")
        }
        guard rename(temporaryPath, path) == 0 else {
            throw posixError("cannot rename \(temporaryPath) to \(path)")
        }
        renamed = true
        try syncDirectory(containing: path)
    }

    /// Reads the whole regular file at `path`, checking its mode on the open descriptor (no check-then-open race).
    ///
    /// - Parameter checkMode: called with the file's permission bits before reading; throws to refuse the file.
    static func readFile(_ path: String, checkMode: (mode_t) throws -> Void = { _ in }) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw posixError("cannot open \(path)")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw posixError("cannot stat \(path)")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw SigningError(code: .fileSystem, message: "\(path) is not a regular file")
        }
        try checkMode(status.st_mode & 0o7777)

        var contents = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR {
                    continue
                }
                throw posixError("read of \(path) failed")
            }
            if count == 0 {
                return contents
            }
            contents.append(contentsOf: chunk[0..<count])
        }
    }

    /// Creates `path` as a directory with `mode` if it does not exist yet.
    static func createDirectory(_ path: String, mode: mode_t) throws {
        if mkdir(path, mode) == 0 {
            return
        }
        let error = errno
        var status = stat()
        guard error == EEXIST, stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            errno = error
            throw posixError("cannot create directory \(path)")
        }
    }

    /// Writes every byte, looping over short writes and EINTR.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws {
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR {
                        continue
                    }
                    throw posixError("write to \(path) failed")
                }
                offset += written
            }
        }
    }

    /// Makes a rename durable: the directory entry lives in the directory, not in the file.
    private static func syncDirectory(containing path: String) throws {
        let directory: String
        if let slash = path.lastIndex(of: "/") {
            directory = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            directory = "."
        }
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw posixError("cannot open directory \(directory) to fsync it")
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw posixError("fsync of directory \(directory) failed")
        }
    }

    /// A `fileSystem` error carrying `errno`'s text; read errno before anything else can change it.
    static func posixError(_ message: String, fileID: String = #fileID, line: Int = #line) -> SigningError {
        let number = errno
        return SigningError(
            code: .fileSystem,
            message: "\(message): \(String(cString: strerror(number))) (errno \(number))",
            fileID: fileID,
            line: line
        )
    }
}
