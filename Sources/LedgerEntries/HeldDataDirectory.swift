import DurableFiles
import Platform

/// A writable data directory and the directories in it that a ledger writes, held by their descriptors from the
/// open on: the lock file, this device's file and the others' in `ledger/`, the signed heads in `heads/`, the device
/// id and the checkpoint are made, renamed and synced through them.
///
/// The directories are checked by path when the ledger opens (``LedgerDirectory/check(_:)``); held open, they stay
/// the directories checked. One swapped for a link to a directory elsewhere afterwards (`rename` with
/// `RENAME_EXCHANGE`) receives nothing: the writes go to the directory opened. Each directory in the data directory
/// is opened from the data directory's descriptor without following a link, so a link there is refused.
package final class HeldDataDirectory {
    /// The data directory.
    let data: DirectoryHandle
    /// `ledger/`.
    package let ledger: DirectoryHandle
    /// The directories in it opened since, by name (`heads`, `torn`).
    private var opened: [String: DirectoryHandle] = [:]

    /// Makes the data directory at `path` when it is missing (the path the user gave, 0700), then holds it as
    /// ``init(_:making:)`` does, `ledger/` made through its descriptor when missing.
    static func making(_ path: String, fileSystem: any FileSystem) throws -> HeldDataDirectory {
        try fileSystem.makeDirectories(path)
        return try HeldDataDirectory(path, making: fileSystem)
    }

    /// Opens the data directory at `path` (never through a link), its `ledger/` and `heads/` when it is there. With
    /// `fileSystem`, a missing `ledger/` is made through the data directory's descriptor; without, it must be there.
    init(_ path: String, making fileSystem: (any FileSystem)? = nil) throws {
        data = try Self.opening(path) { try DirectoryHandle(opening: path) }
        if let fileSystem, !data.contains("ledger") {
            try fileSystem.makeDirectory("ledger", in: data, permissions: 0o700)
            try fileSystem.syncDirectory(data)
        }
        ledger = try Self.opening(data.path(of: "ledger")) { [data] in try data.directory("ledger") }
        // Opened now when it is there, with the others: it is the directory checked with them.
        if data.contains("heads") {
            opened["heads"] = try Self.opening(data.path(of: "heads")) { [data] in try data.directory("heads") }
        }
    }

    /// Runs `open` (a directory at `path`, never through a link), a link found there said as the data directory's
    /// checks say it (put there since they looked, or swapped in while it was opened).
    private static func opening(_ path: String, _ open: () throws -> DirectoryHandle) throws -> DirectoryHandle {
        do {
            return try open()
        } catch let error as FileError where error.errno == ELOOP || error.errno == ENOTDIR {
            // A directory again by now, or gone: what was there as it was opened was not one, a link swapped in.
            let mode = (try? Files.entryStatus(path))?.st_mode ?? S_IFLNK
            if [S_IFLNK, S_IFDIR].contains(mode & S_IFMT) { throw DataDirectoryError.symbolicLink(path: path) }
            throw DataDirectoryError.notADirectory(path: path, found: Files.kind(of: mode))
        }
    }

    /// The directory `name` in the data directory when it is there (opened once, never through a link), or nil.
    func existingDirectory(_ name: String) throws -> DirectoryHandle? {
        if let held = opened[name] { return held }
        guard data.contains(name) else { return nil }
        let held = try Self.opening(data.path(of: name)) { try data.directory(name) }
        opened[name] = held
        return held
    }

    /// The directory `name` in the data directory, made (0700, made durable in the data directory) when missing, and
    /// opened once: a link there is refused, not followed.
    func directory(_ name: String, fileSystem: any FileSystem) throws -> DirectoryHandle {
        if let held = opened[name] { return held }
        if !data.contains(name) {
            try fileSystem.makeDirectory(name, in: data, permissions: 0o700)
            try fileSystem.syncDirectory(data)
        }
        let held = try Self.opening(data.path(of: name)) { try data.directory(name) }
        opened[name] = held
        return held
    }
}
