import DurableFiles
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The shared temporary directory (TestSupport), under the name these suites use.
typealias ScratchDirectory = TemporaryDirectory

extension TemporaryDirectory {
    /// The names in the directory, dot files included.
    func names() throws -> [String] { try Files.list(path) }
}

/// The permission bits of what is at `path` (not following a link).
func permissions(of path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o7777
}

func contents(of path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { Array($0) }
}

func write(_ text: String, to path: String, mode: mode_t = 0o644) throws {
    try #require(
        FileManager.default.createFile(
            atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: Int(mode)]))
}

/// A file layer over ``SystemFileSystem`` that a test can make fail (one call by name, with an errno) or act just
/// before a call (plant a file where the next one will be created), and that remembers the paths it opened.
final class FaultyFileSystem: FileSystem {
    enum Call: Sendable, Equatable {
        case open, write, size, truncate, syncData, sync, rename, makeDirectory, syncDirectory
    }

    private let system = SystemFileSystem()
    /// The call to fail, and the errno it fails with.
    var failing: (call: Call, errno: Int32)?
    /// Runs before each `open`, with the path and mode.
    var beforeOpen: ((String, OpenMode) -> Void)?
    private(set) var opened: [(path: String, mode: OpenMode)] = []
    private(set) var removed: [String] = []

    private func check(_ call: Call, _ path: String, _ operation: FileError.Operation) throws {
        if let failing, failing.call == call {
            throw FileError(path: path, operation: operation, errno: failing.errno)
        }
    }

    func open(_ path: String, _ mode: OpenMode, permissions: mode_t) throws -> Int32 {
        try check(.open, path, .open)
        beforeOpen?(path, mode)
        opened.append((path, mode))
        return try system.open(path, mode, permissions: permissions)
    }

    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws -> Int {
        try check(.write, path, .write)
        return try system.write(descriptor, bytes, path: path)
    }

    func size(_ descriptor: Int32, path: String) throws -> Int64 {
        try check(.size, path, .fstat)
        return try system.size(descriptor, path: path)
    }

    func truncate(_ descriptor: Int32, to length: Int64, path: String) throws {
        try check(.truncate, path, .truncate)
        try system.truncate(descriptor, to: length, path: path)
    }

    func syncData(_ descriptor: Int32, path: String) throws {
        try check(.syncData, path, .fdatasync)
        try system.syncData(descriptor, path: path)
    }

    func sync(_ descriptor: Int32, path: String) throws {
        try check(.sync, path, .fsync)
        try system.sync(descriptor, path: path)
    }

    func close(_ descriptor: Int32) { system.close(descriptor) }

    func rename(_ source: String, to target: String) throws {
        try check(.rename, target, .rename)
        try system.rename(source, to: target)
    }

    func linkNew(_ source: String, as target: String) throws {
        try check(.rename, target, .link)
        try system.linkNew(source, as: target)
    }

    func removeFile(_ path: String) {
        removed.append(path)
        system.removeFile(path)
    }

    func makeDirectory(_ path: String, permissions: mode_t) throws {
        try check(.makeDirectory, path, .mkdir)
        try system.makeDirectory(path, permissions: permissions)
    }

    func syncDirectory(_ path: String) throws {
        try check(.syncDirectory, path, .fsyncDirectory)
        try system.syncDirectory(path)
    }
}
