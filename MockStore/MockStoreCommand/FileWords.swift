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

    /// Writes `bytes` to `path`, replacing it; nil once written, else why not.
    static func write(_ bytes: [UInt8], to path: String) -> String? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return problem(errno, path, writing: true).why }
        var rest = bytes[...]
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                let failed = problem(errno, path, writing: true)
                close(descriptor)
                return failed.why
            }
            rest = rest.dropFirst(written)
        }
        guard close(descriptor) == 0 || errno == EINTR else { return problem(errno, path, writing: true).why }
        return nil
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

// The C calls under names the methods above do not shadow (Glibc and Darwin alike).
private func systemRead(_ fd: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, bytes, count) }
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, bytes, count) }
