import DurableFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file layer over ``SystemFileSystem`` that a test can make fail (one call by name, with an errno) or act just
/// before a call (plant a file where the next one will be created), and that remembers the paths it opened.
public final class FaultyFileSystem: FileSystem {
    public enum Call: Sendable, Equatable {
        case open, write, size, truncate, syncData, sync, rename, makeDirectory, syncDirectory
    }

    private let system = SystemFileSystem()

    public init() {}
    /// The call to fail, and the errno it fails with.
    public var failing: (call: Call, errno: Int32)?
    /// Runs before each `open`, with the path and mode.
    public var beforeOpen: ((String, OpenMode) -> Void)?
    public private(set) var opened: [(path: String, mode: OpenMode)] = []
    public private(set) var removed: [String] = []

    private func check(_ call: Call, _ path: String, _ operation: FileError.Operation) throws {
        if let failing, failing.call == call {
            throw FileError(path: path, operation: operation, errno: failing.errno)
        }
    }

    public func open(_ path: String, _ mode: OpenMode, permissions: mode_t) throws -> Int32 {
        try check(.open, path, .open)
        beforeOpen?(path, mode)
        opened.append((path, mode))
        return try system.open(path, mode, permissions: permissions)
    }

    public func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws -> Int {
        try check(.write, path, .write)
        return try system.write(descriptor, bytes, path: path)
    }

    public func size(_ descriptor: Int32, path: String) throws -> Int64 {
        try check(.size, path, .fstat)
        return try system.size(descriptor, path: path)
    }

    public func truncate(_ descriptor: Int32, to length: Int64, path: String) throws {
        try check(.truncate, path, .truncate)
        try system.truncate(descriptor, to: length, path: path)
    }

    public func syncData(_ descriptor: Int32, path: String) throws {
        try check(.syncData, path, .fdatasync)
        try system.syncData(descriptor, path: path)
    }

    public func sync(_ descriptor: Int32, path: String) throws {
        try check(.sync, path, .fsync)
        try system.sync(descriptor, path: path)
    }

    public func close(_ descriptor: Int32) { system.close(descriptor) }

    public func rename(_ source: String, to target: String) throws {
        try check(.rename, target, .rename)
        try system.rename(source, to: target)
    }

    public func linkNew(_ source: String, as target: String) throws {
        try check(.rename, target, .link)
        try system.linkNew(source, as: target)
    }

    public func removeFile(_ path: String) {
        removed.append(path)
        system.removeFile(path)
    }

    public func makeDirectory(_ path: String, permissions: mode_t) throws {
        try check(.makeDirectory, path, .mkdir)
        try system.makeDirectory(path, permissions: permissions)
    }

    public func syncDirectory(_ path: String) throws {
        try check(.syncDirectory, path, .fsyncDirectory)
        try system.syncDirectory(path)
    }
}
