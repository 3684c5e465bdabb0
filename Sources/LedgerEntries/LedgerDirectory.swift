import DurableFiles
import Platform

/// A ledger's data directory as hostile input: checked before the ledger reads anything through it, kept narrow
/// (0700 directories, 0600 files whatever the umask) and cleared of a killed process's temporary files at each
/// open; and the one reader of its `device` file.
public enum LedgerDirectory {
    /// The directories of a data directory, each checked as the data directory itself is.
    public static let subdirectories = ["ledger", "keys", "heads", "torn", "store-roots"]

    /// Files the upkeep never narrows: a secret wider than 0600 is refused where it is read (it may have been read
    /// by others already), not quietly made private.
    static let secretNames: Set<String> = ["store-secret", "ledger.key", "head-signing.pem"]

    /// The file holding this device's id.
    static func devicePath(in directory: String) -> String { directory + "/device" }

    /// Refuses a data directory (or a directory in it) that is a symbolic link, not a directory, owned by another
    /// user, or writable by group or others, with the command that makes it safe; a missing one passes.
    ///
    /// - Throws: ``DataDirectoryError``.
    public static func check(_ directory: String) throws {
        try DataDirectory.check(directory, subdirectories: subdirectories)
    }

    /// Whether `directory` exists and the ledger cannot write in it (or in its `ledger/`, or its lock file): it is
    /// read read-only.
    public static func cannotWrite(_ directory: String) -> Bool {
        guard Files.exists(directory) else { return false }
        let ledger = directory + "/ledger"
        let lock = ledger + "/.lock"
        return !DataDirectory.isWritable(directory) || (Files.exists(ledger) && !DataDirectory.isWritable(ledger))
            || (Files.exists(lock) && !DataDirectory.isWritableFile(lock))
    }

    /// At each open that may write, under the ledger's lock: narrows the data directory and its directories to 0700
    /// and the files in them to 0600 (secrets aside), and removes the temporary files a killed process left. Every
    /// writer of `ledger/`, `heads/`, `torn/`, `device` and `checkpoint` holds this lock, so any temporary there is
    /// a leftover; other temporaries at the top (the store's files) only once they are ten minutes old.
    ///
    /// With `held` (the directories held open by a writable ledger), everything goes through their descriptors: a
    /// directory swapped for a link meanwhile has nothing narrowed or removed in the link's target.
    static func keepLocked(_ directory: String, held: HeldDataDirectory?) {
        guard let held else { return keepLocked(directory) }
        let narrowable: (String) -> Bool = { !secretNames.contains($0) }
        DataDirectory.narrow(held.data, files: narrowable)
        for name in subdirectories {
            if let inside = try? held.existingDirectory(name) { DataDirectory.narrow(inside, files: narrowable) }
        }
        let ours = ["device", "checkpoint"]
        DataDirectory.removeTemporaries(in: held.data) { name, age in
            age >= 600 || ours.contains { name.hasPrefix("." + $0 + ".tmp-") || name.hasPrefix($0 + ".tmp-") }
        }
        for name in ["ledger", "heads", "torn"] {
            guard let inside = try? held.existingDirectory(name) else { continue }
            DataDirectory.removeTemporaries(in: inside) { _, _ in true }
        }
    }

    /// ``keepLocked(_:held:)`` by path.
    static func keepLocked(_ directory: String) {
        let narrowable: (String) -> Bool = { !secretNames.contains($0) }
        DataDirectory.narrow(directory, files: narrowable)
        for name in subdirectories { DataDirectory.narrow(directory + "/" + name, files: narrowable) }
        let ours = ["device", "checkpoint"]
        DataDirectory.removeTemporaries(in: directory) { name, age in
            age >= 600 || ours.contains { name.hasPrefix("." + $0 + ".tmp-") || name.hasPrefix($0 + ".tmp-") }
        }
        for name in ["ledger", "heads", "torn"] {
            DataDirectory.removeTemporaries(in: directory + "/" + name) { _, _ in true }
        }
    }

    /// This device's id as the `device` file of `directory` says, or nil when there is none (or it is empty: a
    /// first write was interrupted); anything but a regular file there (a link is not followed), or a file that
    /// does not hold a device id, is refused. Every reader of the file goes through here: the ledger's open, the
    /// checkpoint's check and `credit verify` of a ledger that will not open.
    public static func deviceID(in directory: String) throws -> String? {
        let path = devicePath(in: directory)
        let bytes: [UInt8]
        do {
            bytes = try Files.readAll(path)
        } catch let error as FileError where error.errno == ENOENT {
            return nil
        }
        let name = Whitespace.trimmed(
            String(validating: bytes, as: UTF8.self) ?? String(decoding: bytes, as: UTF8.self))
        // An empty file is a device id never written (the first write was interrupted): a new ledger.
        guard !name.isEmpty else { return nil }
        if let problem = DeviceID.problem(with: name) {
            throw LedgerError.invalid("\(path) does not hold this device's id: \(problem)")
        }
        return name
    }
}
