import DurableFiles
import Platform

/// Signing's files (keys, certificates) through the one file-system seam, ``DurableFiles``: atomic, durable writes
/// (an exclusively created temporary with an unpredictable name, fsync, rename, directory fsync, as
/// ledger-durability.md rule 7 describes) and reads that follow no symbolic link. Failures become ``SigningError``
/// (`fileSystem`) naming the path, the call and the system's words.
enum FileIO {
    /// Writes `bytes` to `path` atomically and durably through `fileSystem`; the file has exactly `mode` from the
    /// moment it exists.
    ///
    /// A crash leaves either the old file or the new one, never a partial file.
    static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t, fileSystem: any FileSystem) throws {
        try signingErrors { try fileSystem.replaceAtomically(path, with: bytes, mode: mode) }
    }

    /// Reads the whole regular file at `path`, checking its mode on the open descriptor (no check-then-open race).
    ///
    /// - Parameter checkMode: called with the file's permission bits before reading; throws to refuse the file.
    static func readFile(_ path: String, checkMode: (mode_t) throws -> Void = { _ in }) throws -> [UInt8] {
        try signingErrors { try Files.readAll(path, checkingMode: checkMode) }
    }

    /// Creates `path` as a directory with exactly `mode` through `fileSystem` if it does not exist yet.
    static func createDirectory(_ path: String, mode: mode_t, fileSystem: any FileSystem) throws {
        try signingErrors {
            try fileSystem.makeDirectory(path, permissions: mode)
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                throw FileError(path: path, operation: .mkdir, errno: EEXIST)
            }
        }
    }

    /// Runs `body`, turning a ``FileError`` into a `fileSystem` ``SigningError`` carrying it.
    private static func signingErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as FileError {
            throw SigningError.fileSystem(error)
        }
    }
}
