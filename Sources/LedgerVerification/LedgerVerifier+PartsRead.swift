import LedgerEntries
import Platform
import Signing

extension LedgerVerifier {
    /// The MACs of a file's lines as checked while it was read: with which key, and whether each line's holds.
    struct CheckedMACs: Sendable {
        let key: [UInt8]
        let valid: [Bool]
        /// The file's lines as one good run, when the read made one (a file read in parts, none torn).
        var chain: ChainRun? = nil
    }

    /// Reads and parses `path` for verifying, as ``read(_:)`` does, with every line's MAC checked under `macKey` as
    /// it is parsed (``verify(read:heads:requireHeads:)`` then finds them checked). A large file is read in parts,
    /// each on its own thread, without keeping its bytes; anything out of the way (a small file, one that is not a
    /// regular file, one that changes while it is read, a failed read) is read as ``read(_:)`` reads it, which says
    /// what is wrong in the same words.
    public static func read(_ path: String, macKey: [UInt8]) throws -> ReadFile {
        try read(path, macKey: macKey, hints: nil)
    }

    /// ``read(_:macKey:)`` with `hints` (the checkpoint's marks for this file:
    /// ``LedgerCheckpoint/lineHints(in:macKey:)``): the file is cut where the last full read cut it, and only its
    /// last part's newlines are counted before the parse.
    package static func read(_ path: String, macKey: [UInt8], hints: DeviceFile.Hints?) throws -> ReadFile {
        if let file = readInParts(path, macKey: macKey, hints: hints) { return file }
        var file = try read(path)
        file.checkedMACs = CheckedMACs(key: macKey, valid: try checkMACs(of: file, key: macKey))
        return file
    }

    /// ``read(_:macKey:)`` on several threads; nil when the file is not one to read so.
    private static func readInParts(_ path: String, macKey: [UInt8], hints: DeviceFile.Hints?) -> ReadFile? {
        // Opened as `Files.readAll` opens a file: never through a link, never waiting on a FIFO.
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = Int64(info.st_size)
        let parts = ParallelLines.partCount(for: size)
        guard parts > 1 else { return nil }
        // Marks that do not hold (a file changed in place) leave a part short or over: read it as below.
        if let marks = hints?.marks(for: info),
            let hinted = try? ParallelLines.hintedCounts(marks, fd: fd, path: path, end: size, parts: parts),
            let file = VerifierLineParts(fd: fd, path: path, bounds: hinted.bounds, counts: hinted.counts, key: macKey)
                .read()
        {
            return file
        }
        guard let bounds = try? ParallelLines.partBounds(fd: fd, path: path, from: 0, to: size, parts: parts),
            let counts = try? ParallelLines.newlineCounts(fd: fd, path: path, bounds: bounds, parts: bounds.count - 1)
        else { return nil }
        return VerifierLineParts(fd: fd, path: path, bounds: bounds, counts: counts, key: macKey).read()
    }
}
