import DurableFiles
import Foundation

/// A file a command is asked to write (`--out`, `--summary`): what stops it being written there, said before
/// anything is made, in the user's own terms (the folder named, not a temporary file's name).
enum OutputPath {
    /// Why nothing can be written at `path`, or nil when it may be: a folder there (`name` is suggested for a file
    /// in it), or a folder for it that is not there or is not a folder.
    static func problem(_ path: String, suggesting name: String) -> String? {
        if path.isEmpty { return "no file was named" }
        if let info = try? Files.entryStatus(path), info.st_mode & S_IFMT == S_IFDIR {
            return "it is a folder: give the name of a file (for example \(path)/\(name))"
        }
        let folder = Files.parent(of: path)
        guard let info = try? Files.entryStatus(folder) else {
            return "the folder \(folder) does not exist"
        }
        if info.st_mode & S_IFMT != S_IFDIR && info.st_mode & S_IFMT != S_IFLNK {
            return "\(folder) is not a folder"
        }
        return nil
    }

    /// Replaces `path` with `bytes` atomically through `fileSystem`: a reader sees the old file or the new one, never
    /// half of one, and a write that fails leaves the old one. `mode` whatever the umask (0600 unless it is for
    /// sharing). A failure is ``CreditFailure/cannotWrite(what:path:why:)``, said of `path` as given.
    static func write(
        _ bytes: [UInt8], to path: String, what: String, suggesting name: String, mode: mode_t = 0o600,
        fileSystem: any FileSystem = SystemFileSystem()
    ) throws {
        let refused = { (why: String) in CreditFailure.cannotWrite(what: what, path: path, why: why) }
        if let why = problem(path, suggesting: name) { throw refused(why) }
        do {
            try fileSystem.replaceAtomically(path, with: bytes, mode: mode)
        } catch let error as FileError where error.found == nil && !error.isSymbolicLink {
            // The temporary file beside it is how it is written, not what the user named: said of the path given.
            throw refused(FileError.reason(error.errno))
        } catch {
            throw refused(PlainWords.describe(error))
        }
    }
}
