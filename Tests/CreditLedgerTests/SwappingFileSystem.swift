import DurableFiles
import Platform

/// A file layer over ``SystemFileSystem`` that, just before the first file is opened for writing under `directory`,
/// swaps that directory for a link to `elsewhere`, as another process can between a check and a write: a link made
/// beside it (`<directory>.swapped`) and the two names exchanged in one step (`RENAME_EXCHANGE`). The directory
/// itself is then at `<directory>.swapped`.
///
/// `byPath`: the calls through a directory's descriptor are made by the directory's path instead, as the code before
/// issue 35 made every call. The control: it shows the swap does send a write by path elsewhere.
final class SwappingFileSystem: FileSystem {
    private let system = SystemFileSystem()
    /// The directory swapped.
    let directory: String
    /// Where the link put in its place points.
    let elsewhere: String
    let byPath: Bool
    /// Whether the swap was made.
    private(set) var swapped = false

    init(swapping directory: String, for elsewhere: String, byPath: Bool = false) {
        self.directory = directory
        self.elsewhere = elsewhere
        self.byPath = byPath
    }

    /// Where the directory is after the swap.
    var movedDirectory: String { directory + ".swapped" }

    /// Swaps once, before the first open of a file under the directory.
    private func swapIfUnder(_ path: String) {
        guard !swapped, path.hasPrefix(directory + "/") else { return }
        swapped = true
        precondition(symlink(elsewhere, movedDirectory) == 0, "symlink: \(errno)")
        precondition(
            Platform.exchangeNames(directory, in: AT_FDCWD, with: movedDirectory, in: AT_FDCWD) == 0,
            "renameat2(RENAME_EXCHANGE): \(errno)")
    }

    func open(_ path: String, _ mode: OpenMode, permissions: mode_t) throws -> Int32 {
        swapIfUnder(path)
        return try system.open(path, mode, permissions: permissions)
    }

    func open(_ name: String, in directory: DirectoryHandle, _ mode: OpenMode, permissions: mode_t) throws -> Int32 {
        if byPath { return try open(directory.path(of: name), mode, permissions: permissions) }
        swapIfUnder(directory.path(of: name))
        return try system.open(name, in: directory, mode, permissions: permissions)
    }

    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws -> Int {
        try system.write(descriptor, bytes, path: path)
    }

    func size(_ descriptor: Int32, path: String) throws -> Int64 { try system.size(descriptor, path: path) }

    func truncate(_ descriptor: Int32, to length: Int64, path: String) throws {
        try system.truncate(descriptor, to: length, path: path)
    }

    func syncData(_ descriptor: Int32, path: String) throws { try system.syncData(descriptor, path: path) }
    func sync(_ descriptor: Int32, path: String) throws { try system.sync(descriptor, path: path) }
    func close(_ descriptor: Int32) { system.close(descriptor) }
    func rename(_ source: String, to target: String) throws { try system.rename(source, to: target) }
    func linkNew(_ source: String, as target: String) throws { try system.linkNew(source, as: target) }
    func removeFile(_ path: String) { system.removeFile(path) }

    func makeDirectory(_ path: String, permissions: mode_t) throws {
        try system.makeDirectory(path, permissions: permissions)
    }

    func syncDirectory(_ path: String) throws { try system.syncDirectory(path) }

    func rename(_ source: String, to target: String, in directory: DirectoryHandle) throws {
        if byPath { return try rename(directory.path(of: source), to: directory.path(of: target)) }
        try system.rename(source, to: target, in: directory)
    }

    func linkNew(_ source: String, as target: String, in directory: DirectoryHandle) throws {
        if byPath { return try linkNew(directory.path(of: source), as: directory.path(of: target)) }
        try system.linkNew(source, as: target, in: directory)
    }

    func removeFile(_ name: String, in directory: DirectoryHandle) {
        if byPath { return removeFile(directory.path(of: name)) }
        system.removeFile(name, in: directory)
    }

    func makeDirectory(_ name: String, in directory: DirectoryHandle, permissions: mode_t) throws {
        if byPath { return try makeDirectory(directory.path(of: name), permissions: permissions) }
        try system.makeDirectory(name, in: directory, permissions: permissions)
    }

    func syncDirectory(_ directory: DirectoryHandle) throws {
        if byPath { return try syncDirectory(directory.path) }
        try system.syncDirectory(directory)
    }

    func readFile(_ name: String, in directory: DirectoryHandle, limit: Int) throws -> [UInt8] {
        if byPath { return try Files.readAll(directory.path(of: name)) }
        return try system.readFile(name, in: directory, limit: limit)
    }
}
