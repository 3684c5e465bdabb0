import DurableFiles
import Platform

/// The entry ids a checkpoint vouches for, as 64-bit hashes the same in every process
/// (``EntryIDIndex/stableHash(_:)``): most of them in `checkpoint-ids` beside the checkpoint, and those appended since
/// it was last added to in the checkpoint itself (``recent``).
///
/// The file is a run of chunks, each a count (8 bytes, little endian) then that many hashes; it is made whole by a
/// full load and added to, a chunk at a time, by appends (so a batch of appends costs what it added, not the
/// ledger). Its integrity is a chain: each chunk's tag is the HMAC-SHA256 under the ledger key of the tag before it
/// (zeros for the first) and the chunk's bytes; the checkpoint holds the last tag, the count and the file's length.
///
/// The counter needs them to take a checkpoint forward: a new line whose id may be one read before (a copy, or an
/// id with other content) is left to a full read, which says what it is. A hash matched by another id only costs
/// that full read; an id read before always matches. The file is read only when lines were appended, never when
/// nothing changed.
struct CheckpointIDs: Equatable {
    /// The hashes in `checkpoint-ids`.
    var count: Int
    /// The file's length.
    var bytes: Int
    /// The last chunk's tag.
    var tag: ChainDigest
    /// Hashes of ids appended since `checkpoint-ids` was written, kept in the checkpoint.
    var recent: [UInt64] = []

    static let fileName = "checkpoint-ids"
    /// At most this many ``recent`` hashes: then they go to the file as a chunk (one append in this many pays for
    /// it, so an append's p99 does not).
    static let recentLimit = 256

    static func path(in directory: String) -> String { directory + "/" + fileName }

    /// One chunk's bytes for `hashes`.
    static func chunk(_ hashes: [UInt64]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: (hashes.count + 1) * 8)
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: UInt64(hashes.count).littleEndian, toByteOffset: 0, as: UInt64.self)
            for (index, hash) in hashes.enumerated() {
                raw.storeBytes(of: hash.littleEndian, toByteOffset: (index + 1) * 8, as: UInt64.self)
            }
        }
        return bytes
    }

    /// The tag of `chunk` after `tag`, or nil when `mac` failed.
    static func tag(of chunk: [UInt8], after tag: ChainDigest, mac: ([UInt8]) -> [UInt8]?) -> ChainDigest? {
        mac(tag.bytes + chunk).flatMap { ChainDigest(bytes: $0) }
    }

    /// The hashes in the file's `bytes`, when its chunks add up to ``count`` hashes in ``bytes`` bytes and their
    /// chained tags (made by `mac`) end in ``tag``; nil otherwise (the checkpoint is then not used).
    func hashes(in file: [UInt8], mac: ([UInt8]) -> [UInt8]?) -> [UInt64]? {
        guard file.count == bytes else { return nil }
        var hashes: [UInt64] = []
        hashes.reserveCapacity(count)
        var chained = ChainDigest.zero
        var offset = 0
        while offset < file.count {
            guard file.count - offset >= 8 else { return nil }
            let size = file.withUnsafeBytes {
                UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            }
            guard size <= UInt64(file.count - offset - 8) / 8 else { return nil }
            let end = offset + 8 + Int(size) * 8
            let chunk = Array(file[offset..<end])
            guard let next = Self.tag(of: chunk, after: chained, mac: mac) else { return nil }
            chained = next
            file.withUnsafeBytes { raw in
                for at in stride(from: offset + 8, to: end, by: 8) {
                    hashes.append(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)))
                }
            }
            offset = end
        }
        guard hashes.count == count, chained.equalsInConstantTime(tag) else { return nil }
        return hashes
    }

    /// Writes `checkpoint-ids` whole for `hashes` (one chunk; unsynced, as the checkpoint) through `fileSystem`
    /// and returns what the checkpoint says of it, or nil when it could not be written.
    static func writeWhole(
        _ hashes: [UInt64], in data: DirectoryHandle, fileSystem: any FileSystem, mac: ([UInt8]) -> [UInt8]?
    ) -> CheckpointIDs? {
        let chunk = chunk(hashes)
        guard let tag = tag(of: chunk, after: .zero, mac: mac),
            (try? fileSystem.replaceUnsynced(fileName, in: data, with: chunk, mode: 0o600)) != nil
        else { return nil }
        return CheckpointIDs(count: hashes.count, bytes: chunk.count, tag: tag)
    }

    /// Adds ``recent`` and `hashes` to the file as one chunk (at its end, unsynced) and returns what the checkpoint
    /// then says of it; nil when the file is not the one this describes (by its length) or cannot be written: write
    /// it whole then.
    func appending(
        _ hashes: [UInt64], in data: DirectoryHandle, fileSystem: any FileSystem, mac: ([UInt8]) -> [UInt8]?
    ) -> CheckpointIDs? {
        let added = recent + hashes
        let chunk = Self.chunk(added)
        guard let next = Self.tag(of: chunk, after: tag, mac: mac),
            let fd = try? fileSystem.open(Self.fileName, in: data, .append, permissions: 0o600)
        else { return nil }
        defer { fileSystem.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) == bytes,
            (try? chunk.withUnsafeBytes({ try fileSystem.writeAll(fd, $0, path: Self.fileName) })) != nil
        else { return nil }
        return CheckpointIDs(count: count + added.count, bytes: bytes + chunk.count, tag: next)
    }

    /// The checkpoint's line for them: `ids COUNT BYTES TAG`, then `recent HASH...` when there are any.
    var signedText: String {
        var text = "ids \(count) \(bytes) \(tag.hex)\n"
        if !recent.isEmpty { text += "recent " + recent.map { String($0, radix: 16) }.joined(separator: " ") + "\n" }
        return text
    }
}
