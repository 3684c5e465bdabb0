import DurableFiles

// The names the file-system seam had while it lived in this module, for the code that still calls them. The
// coordinator removes this file once every branch calls the DurableFiles names.

/// The file-system seam: ``DurableFiles/FileSystem``.
public typealias LedgerFileSystem = DurableFiles.FileSystem
/// The real file system: ``DurableFiles/SystemFileSystem``. A subclass rather than an alias, because the ledger's
/// public functions name it in default arguments in files that do not import DurableFiles.
public final class POSIXFileSystem: SystemFileSystem {
    public override init() { super.init() }
}
/// How the seam opens a file for writing: ``DurableFiles/OpenMode``.
public typealias LedgerOpenMode = DurableFiles.OpenMode
/// Named crash points: ``DurableFiles/CrashPoints``.
public typealias FaultInjection = DurableFiles.CrashPoints
typealias POSIXFile = DurableFiles.Files
typealias DirectoryLock = DurableFiles.FileLock

extension String {
    /// The directory part of a path: ``DurableFiles/Files/parent(of:)``.
    var parentPath: String { Files.parent(of: self) }

    /// The last component of a path: ``DurableFiles/Files/lastComponent(of:)``.
    var lastPathComponent: String { Files.lastComponent(of: self) }
}
