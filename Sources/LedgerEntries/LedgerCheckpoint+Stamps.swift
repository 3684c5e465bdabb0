import DurableFiles
import Platform
import Signing

extension LedgerCheckpoint {
    /// The current stamp of `path` (named `name`), or nil when it cannot be read or is not a regular file (a link
    /// is not followed).
    static func stamp(_ path: String, name: String) -> Stamp? {
        guard let fd = try? Files.openRegularForReading(path) else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let size = Int64(info.st_size)
        guard let tail = lastBytes(fd, before: size) else { return nil }
        #if canImport(Darwin)
            let changed = info.st_ctimespec
        #else
            let changed = info.st_ctim
        #endif
        return Stamp(
            name: name, deviceID: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: size,
            changedSeconds: Int64(changed.tv_sec), changedNanoseconds: Int64(changed.tv_nsec), tail: Hex.encode(tail))
    }

    /// The (up to) 32 bytes of `fd` before offset `end`, or nil when they cannot be read.
    private static func lastBytes(_ fd: Int32, before end: Int64) -> [UInt8]? {
        let count = Int(min(end, 32))
        var bytes = [UInt8](repeating: 0, count: count)
        if count > 0 {
            let read = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, count, off_t(end - Int64(count))) }
            guard read == count else { return nil }
        }
        return bytes
    }

    /// Whether the file at `path` still holds, just before offset `end`, the last bytes `stamp` saw there: a file
    /// that grew by lines at its end, not one rewritten and made longer.
    static func stillEnds(_ path: String, as stamp: Stamp) -> Bool {
        guard let fd = try? Files.openRegularForReading(path) else { return false }
        defer { close(fd) }
        return lastBytes(fd, before: stamp.size).map(Hex.encode) == stamp.tail
    }

    /// The stamps of every ledger file and every signed head in `directory` now, each sorted by name, or nil when
    /// one cannot be read or a name cannot be written in a checkpoint.
    static func currentStamps(in directory: String) -> (files: [Stamp], heads: [Stamp])? {
        guard let files = stamps(in: directory + "/ledger", suffix: ".jsonl", missingIsEmpty: false),
            let heads = stamps(in: directory + "/heads", suffix: ".json", missingIsEmpty: true)
        else { return nil }
        return (files, heads)
    }

    private static func stamps(in path: String, suffix: String, missingIsEmpty: Bool) -> [Stamp]? {
        if missingIsEmpty && !Files.exists(path) { return [] }
        guard let names = try? Files.list(path) else { return nil }
        var stamps: [Stamp] = []
        for name in names.sorted() where name.hasSuffix(suffix) {
            guard isPlain(name), let stamp = stamp(path + "/" + name, name: name) else { return nil }
            stamps.append(stamp)
        }
        return stamps
    }
}
