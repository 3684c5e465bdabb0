import DurableFiles
import Platform

/// Secret key files: written owner-only from the moment they exist, and refused when others can read them.
public enum KeyFile {
    /// Writes `bytes` to `path` with mode 0600.
    ///
    /// The file is created with mode 0600 (never created wider and narrowed with `chmod`, which would leave a window
    /// where others could open it), written to a temporary name, fsynced, renamed over `path`, and the directory is
    /// fsynced, so a crash leaves the old key or the new one, never a torn file. Every call goes through
    /// `fileSystem` (a test's can fail on cue).
    /// - Throws: ``SigningError`` (`fileSystem`) naming the path and the system error.
    public static func write(_ bytes: [UInt8], to path: String, fileSystem: any FileSystem = SystemFileSystem())
        throws
    {
        try FileIO.writeAtomically(bytes, to: path, mode: 0o600, fileSystem: fileSystem)
    }

    /// Reads the key file at `path`, refusing it if group or others have any permission on it.
    ///
    /// - Throws: ``SigningError`` (`insecureKeyFile`) naming the path, its mode and the fix; (`fileSystem`) if the
    ///   file cannot be read.
    public static func read(_ path: String) throws -> [UInt8] {
        try FileIO.readFile(path) { mode in
            guard mode & 0o077 == 0 else {
                throw SigningError.insecureKeyFile(path: path, mode: UInt32(mode))
            }
        }
    }
}
