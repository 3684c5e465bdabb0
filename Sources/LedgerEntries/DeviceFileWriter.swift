import DurableFiles

/// Every write a ledger makes to its device files and their directories, through the file-system seam: the
/// durable append to this device's file (one `write` and one `fdatasync`, on a descriptor kept open between
/// appends), the lines a merge copies into other devices' files, a torn tail set aside, and making directories
/// durable. Owns the append descriptor and closes it in `deinit`.
///
/// A write that fails is undone (the file cut back to where it started). When even that fails, or after a failed
/// `fdatasync`, what the file holds is no longer known: the method calls `lostTrack` (the ledger forgets all it
/// read and reads it again) before it throws. The crash points (`CrashPoints`) sit between the steps.
package final class DeviceFileWriter {
    let fileSystem: any FileSystem
    /// The data directory's `ledger/`.
    let ledgerDirectory: String
    /// The data directory and its `ledger/`, held open by the ledger: the device files are opened and the directory
    /// synced through `ledger/`'s descriptor, never by path (nil: a writer of files by path, in tests).
    var held: HeldDataDirectory?
    private var appendDescriptor: Int32 = -1
    private var appendPath = ""
    /// Whether the file `appendDescriptor` is open on, data and directory entry, is known to be on disk since it
    /// was opened.
    private var fileIsDurable = false
    /// Directories made sure of: on disk, their own entries in their parents included.
    private var durableDirectories: Set<String> = []

    init(fileSystem: any FileSystem, ledgerDirectory: String) {
        self.fileSystem = fileSystem
        self.ledgerDirectory = ledgerDirectory
    }

    deinit { closeAppendDescriptor() }

    /// Closes the descriptor appends go through: the next append opens the file again.
    func closeAppendDescriptor() {
        if appendDescriptor >= 0 { fileSystem.close(appendDescriptor) }
        appendDescriptor = -1
    }

    // MARK: this device's file

    /// Appends `bytes` (whole lines) to `path` durably. `creating`: the first lines of a new file, which must be
    /// empty if it is there at all (left by a first write that never completed).
    func appendDurably(_ bytes: [UInt8], to path: String, creating: Bool, lostTrack: () -> Void) throws {
        if creating || appendDescriptor < 0 || appendPath != path {
            closeAppendDescriptor()
            appendDescriptor = try openDeviceFile(path, creating ? .createOrAppend : .append)
            appendPath = path
            fileIsDurable = false
        }
        let fd = appendDescriptor
        let before = try fileSystem.size(fd, path: path)
        if creating && before != 0 {
            throw LedgerError.invalid("\(path) already holds \(before) bytes; a new ledger is not written over it")
        }
        // No partial line is left behind: cut back to where this append started. If even that fails, forget the
        // descriptor and everything read, so the next refresh finds the partial line at the end and sets it aside
        // before anything is appended after it.
        try writeOrCutBack(
            bytes, to: fd, path: path, from: before, beforeWrite: "append.before-write", halfway: "append.mid-line",
            lostTrack: lostTrack)
        try CrashPoints.hit("append.before-sync")
        try syncOrCutBack(fd, path: path, to: before, lostTrack: lostTrack) {
            // A new file is durable only once its directory entry is. Whoever made it may have been killed before
            // syncing its directory, so the first append of each open syncs it too (once; then it is known).
            if creating || !fileIsDurable {
                try syncLedgerDirectory()
                if creating { try ensureDurableDirectory(ledgerDirectory) }
                fileIsDurable = true
            }
        }
        try CrashPoints.hit("append.after-sync")
    }

    /// Makes `path` as it is durable, data and directory entry, before something outside it (a signed head) vouches
    /// for what it holds: a process killed before its fsync leaves lines that are only in the page cache, which a
    /// power loss would take away from under the head.
    func syncFile(_ path: String) throws {
        let fd = try openDeviceFile(path, .append)
        defer { fileSystem.close(fd) }
        try fileSystem.syncData(fd, path: path)
        try syncLedgerDirectory()
    }

    // MARK: other devices' files

    /// Appends `bytes` (complete, newline-terminated lines, exactly as another device wrote them) to `path`, made
    /// when missing; one write and one `fdatasync`.
    package func appendForeignLines(_ bytes: [UInt8], to path: String, lostTrack: () -> Void) throws {
        let creating = held.map { !$0.ledger.contains(Files.lastComponent(of: path)) } ?? !Files.exists(path)
        let fd = try openDeviceFile(path, creating ? .createOrAppend : .append)
        defer { fileSystem.close(fd) }
        let before = try fileSystem.size(fd, path: path)
        try writeOrCutBack(
            bytes, to: fd, path: path, from: before, beforeWrite: nil, halfway: "merge.mid-write", lostTrack: lostTrack)
        try CrashPoints.hit("merge.before-sync")
        try syncOrCutBack(fd, path: path, to: before, lostTrack: lostTrack) {
            if creating { try syncLedgerDirectory() }
        }
    }

    // MARK: through `ledger/` held open

    /// Opens the device file at `path` (in `ledger/`) for writing, through `ledger/`'s descriptor when it is held.
    private func openDeviceFile(_ path: String, _ mode: OpenMode) throws -> Int32 {
        guard let held else { return try fileSystem.open(path, mode, permissions: 0o600) }
        guard Files.parent(of: path) == held.ledger.path else {
            throw LedgerError.invalid("\(path) is not a file of \(held.ledger.path); nothing was written")
        }
        return try fileSystem.open(Files.lastComponent(of: path), in: held.ledger, mode, permissions: 0o600)
    }

    /// `fsync` of `ledger/`: the one held open when there is one.
    private func syncLedgerDirectory() throws {
        if let held { try fileSystem.syncDirectory(held.ledger) } else { try fileSystem.syncDirectory(ledgerDirectory) }
    }

    // MARK: undoing

    /// Writes all of `bytes` to `fd` (`before` bytes long), after the crash point `beforeWrite`; with the crash
    /// point `halfway` active, half of them first (a write cut short). A failed write is cut back to `before`; when
    /// even that fails, `lostTrack` is called.
    private func writeOrCutBack(
        _ bytes: [UInt8], to fd: Int32, path: String, from before: Int64, beforeWrite: String?, halfway: String,
        lostTrack: () -> Void
    ) throws {
        do {
            if let beforeWrite { try CrashPoints.hit(beforeWrite) }
            try bytes.withUnsafeBytes { raw in
                var start = 0
                if CrashPoints.isActive(halfway) {
                    start = raw.count / 2
                    try fileSystem.writeAll(fd, UnsafeRawBufferPointer(rebasing: raw[..<start]), path: path)
                }
                try CrashPoints.hit(halfway)
                try fileSystem.writeAll(fd, UnsafeRawBufferPointer(rebasing: raw[start...]), path: path)
            }
        } catch {
            do { try fileSystem.truncate(fd, to: before, path: path) } catch { lostTrack() }
            throw error
        }
    }

    /// `fdatasync` of `fd`, then `andThen` (directory syncs). After a failure the page cache cannot be trusted: the
    /// kernel may have dropped the pages, or write them later. What was written is not acknowledged, so it must not
    /// count either: it is cut off (back to `before`), `lostTrack` is called so that the state is derived from the
    /// file again, and the error thrown (never retry the fsync and carry on).
    private func syncOrCutBack(
        _ fd: Int32, path: String, to before: Int64, lostTrack: () -> Void, andThen: () throws -> Void
    ) throws {
        do {
            try fileSystem.syncData(fd, path: path)
            try andThen()
        } catch {
            try? fileSystem.truncate(fd, to: before, path: path)
            lostTrack()
            throw error
        }
    }

    // MARK: torn tails and directories

    /// Sets aside the torn tail of `path` (`tail`, the bytes after its first `length`) into `directory` as
    /// `<owner>-<milliseconds>.tail` (never over an earlier one), then cuts the file back to `length` and syncs it.
    func setAsideTornTail(
        _ tail: [UInt8], of path: String, keeping length: Int64, owner: String, in directory: String,
        milliseconds: Int64
    ) throws -> LedgerNotice {
        try ensureDurableDirectory(directory)
        // Through the directory held open, when it is one in the data directory held.
        let torn = try held.flatMap { held in
            Files.parent(of: directory) == held.data.path
                ? try held.directory(Files.lastComponent(of: directory), fileSystem: fileSystem) : nil
        }
        // Never over an earlier tail (a fixed clock, or two in one millisecond).
        let stem = "\(owner)-\(milliseconds)"
        var name = stem + ".tail"
        var copy = 1
        while torn.map({ $0.contains(name) }) ?? Files.exists(directory + "/" + name) {
            copy += 1
            name = stem + "-\(copy).tail"
        }
        let saved = directory + "/" + name
        if let torn {
            try fileSystem.replaceAtomically(name, in: torn, with: tail, mode: 0o600)
        } else {
            try fileSystem.replaceAtomically(saved, with: tail, mode: 0o600)
        }
        try CrashPoints.hit("torn.before-truncate")
        let writer = try openDeviceFile(path, .append)
        defer { fileSystem.close(writer) }
        try fileSystem.truncate(writer, to: length, path: path)
        try fileSystem.sync(writer, path: path)
        return .tornTailMovedAside(file: path, bytes: tail.count, savedTo: saved)
    }

    /// Makes `path` durable, its entries and its own entry in its parent, once per writer: whoever made it (or
    /// renamed a file into it) may have been killed before syncing, and what is in it would vanish with the power.
    package func ensureDurableDirectory(_ path: String) throws {
        guard !durableDirectories.contains(path) else { return }
        if let held, Files.parent(of: path) == held.data.path {
            // A directory of the data directory held: made, opened and synced through the descriptors.
            try fileSystem.syncDirectory(try held.directory(Files.lastComponent(of: path), fileSystem: fileSystem))
            try fileSystem.syncDirectory(held.data)
        } else if Files.exists(path) {
            try fileSystem.syncDirectory(path)
            try fileSystem.syncDirectory(Files.parent(of: path))
        } else {
            try fileSystem.makeDirectories(path)
        }
        durableDirectories.insert(path)
    }
}
