import DurableFiles
import Foundation
import Platform

/// Files `mockstore control` reads and writes (a key file, `root-certificate --out`), with what went wrong said in
/// words: which folder is missing, that a file is a folder, that permission is refused. No Foundation error text.
enum FileWords {
    /// Why a file could not be read or written, in words, e.g. "the folder /nonexistent does not exist".
    struct Problem: Error, Equatable {
        var why: String
    }

    /// The bytes of the file at `path`.
    static func read(_ path: String) -> Result<[UInt8], Problem> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(problem(errno, path, writing: false)) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = systemRead(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return .failure(problem(errno, path, writing: false)) }
            guard count > 0 else { return .success(bytes) }
            bytes += buffer[0..<count]
        }
    }

    /// Writes `bytes` to `path` (mode 0644), replacing it atomically through `fileSystem`: a reader sees the old
    /// file or the new one, never half of one, and a write that fails leaves the old one. Nil once written, else
    /// why not.
    static func write(_ bytes: [UInt8], to path: String, fileSystem: any FileSystem = SystemFileSystem()) -> String? {
        // A folder there is said as such, before a temporary file is made beside it.
        if isFolder(path) { return problem(EISDIR, path, writing: true).why }
        do {
            try fileSystem.replaceAtomically(path, with: bytes, mode: 0o644)
            return nil
        } catch let error as FileError {
            // The temporary file beside it is how it is written, not what the user named: said of the path given.
            return problem(error.errno, path, writing: true).why
        } catch {
            return "\(error)"
        }
    }

    /// `error` (an `errno` of opening, reading or writing `path`) in words.
    static func problem(_ error: Int32, _ path: String, writing: Bool) -> Problem {
        let folder = self.folder(of: path)
        let why: String
        switch error {
        case ENOENT:
            why = isFolder(folder) ? "there is no such file" : "the folder \(folder) does not exist"
        case ENOTDIR: why = "a part of that path (\(folder) or above) is a file, not a folder"
        case EISDIR: why = "it is a folder, not a file"
        case EACCES, EPERM:
            why =
                !writing
                ? "you are not allowed to read it"
                : FileManager.default.fileExists(atPath: path)
                    ? "you are not allowed to change it" : "you are not allowed to make files in the folder \(folder)"
        case EROFS: why = "the disk it is on can only be read"
        case ENOSPC: why = "the disk is full"
        case EDQUOT: why = "your share of the disk is used up"
        case ENAMETOOLONG: why = "the name is too long"
        case ELOOP: why = "its symbolic links go round in a loop"
        case EIO: why = "the disk failed to \(writing ? "write" : "read") it"
        default: why = String(cString: strerror(error)).lowercased()
        }
        return Problem(why: why)
    }

    /// The folder `path` is in (`.` for a bare name).
    private static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

// The C call under a name the methods above do not shadow (Glibc and Darwin alike).
private func systemRead(_ fd: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, bytes, count) }
