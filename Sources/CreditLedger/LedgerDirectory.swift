import DurableFiles
import Platform

/// The data directory as hostile input: checked before the ledger reads anything through it, kept narrow (0700
/// directories, 0600 files whatever the umask) and cleared of a killed process's temporary files at each open.
extension Ledger {
    /// The directories of a data directory, each checked as the data directory itself is.
    public static let subdirectories = ["ledger", "keys", "heads", "torn", "store-roots"]

    /// Files the upkeep never narrows: a secret wider than 0600 is refused where it is read (it may have been read
    /// by others already), not quietly made private.
    static let secretNames: Set<String> = ["store-secret", "ledger.key", "head-signing.pem"]

    /// Refuses a data directory (or a directory in it) that is a symbolic link, not a directory, owned by another
    /// user, or writable by group or others, with the command that makes it safe; a missing one passes.
    ///
    /// - Throws: ``DataDirectoryError``.
    public static func checkDataDirectory(_ directory: String) throws {
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
    func keepDataDirectoryLocked() {
        let narrowable: (String) -> Bool = { !Ledger.secretNames.contains($0) }
        DataDirectory.narrow(directory, files: narrowable)
        for name in Ledger.subdirectories { DataDirectory.narrow(directory + "/" + name, files: narrowable) }
        let ours = ["device", "checkpoint"]
        DataDirectory.removeTemporaries(in: directory) { name, age in
            age >= 600 || ours.contains { name.hasPrefix("." + $0 + ".tmp-") || name.hasPrefix($0 + ".tmp-") }
        }
        for name in ["ledger", "heads", "torn"] {
            DataDirectory.removeTemporaries(in: directory + "/" + name) { _, _ in true }
        }
    }

    /// This device's id as its file says, or nil when there is none; anything but a regular file there, or a file that
    /// does not hold a device id, is refused.
    func readDeviceID() throws -> String? {
        let bytes: [UInt8]
        do {
            bytes = try Files.readAll(devicePath)
        } catch let error as FileError where error.errno == ENOENT {
            return nil
        }
        let name = (String(validating: bytes, as: UTF8.self) ?? String(decoding: bytes, as: UTF8.self))
            .trimmingWhitespace
        // An empty file is a device id never written (the first write was interrupted): a new ledger.
        guard !name.isEmpty else { return nil }
        if let problem = DeviceID.problem(with: name) {
            throw LedgerError.invalid("\(devicePath) does not hold this device's id: \(problem)")
        }
        return name
    }
}
