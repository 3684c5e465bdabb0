/// The entry ids a checkpoint vouches for, as 64-bit hashes the same in every process
/// (``EntryIDIndex/stableHash(_:)``): most of them in `checkpoint-ids` beside the checkpoint (8 bytes each, little
/// endian, in no order), whose count and HMAC the signed checkpoint holds, and those appended since that file was
/// written in the checkpoint itself (``recent``).
///
/// The counter needs them to take a checkpoint forward: a new line whose id may be one read before (a copy, or an
/// id with other content) is left to a full read, which says what it is. A hash matched by another id only costs
/// that full read; an id read before always matches. The file is read only when lines were appended, never when
/// nothing changed.
struct CheckpointIDs: Equatable {
    /// The hashes in `checkpoint-ids`.
    var count: Int
    /// The HMAC-SHA256 of `checkpoint-ids`'s bytes under the ledger key.
    var tag: ChainDigest
    /// Hashes of ids appended since `checkpoint-ids` was written, kept in the checkpoint.
    var recent: [UInt64] = []

    static let fileName = "checkpoint-ids"
    /// At most this many ``recent`` hashes: then the file is written again (one append in this many pays for it,
    /// so an append's p99 does not).
    static let recentLimit = 256

    static func path(in directory: String) -> String { directory + "/" + fileName }

    /// The file's bytes for `hashes`.
    static func encode(_ hashes: [UInt64]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: hashes.count * 8)
        bytes.withUnsafeMutableBytes { raw in
            for (index, hash) in hashes.enumerated() {
                raw.storeBytes(of: hash.littleEndian, toByteOffset: index * 8, as: UInt64.self)
            }
        }
        return bytes
    }

    /// The hashes in the file's `bytes`, when they are `count` of them and their HMAC (made by `mac`) is `tag`;
    /// nil otherwise (the checkpoint is then not used).
    func hashes(in bytes: [UInt8], mac: ([UInt8]) -> [UInt8]?) -> [UInt64]? {
        guard bytes.count == count * 8, let code = mac(bytes), let actual = ChainDigest(bytes: code),
            actual.equalsInConstantTime(tag)
        else { return nil }
        return bytes.withUnsafeBytes { raw in
            (0..<count).map { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)) }
        }
    }

    /// The checkpoint's line for them: `ids COUNT TAG`, then `recent HASH...` when there are any.
    var signedText: String {
        var text = "ids \(count) \(tag.hex)\n"
        if !recent.isEmpty { text += "recent " + recent.map { String($0, radix: 16) }.joined(separator: " ") + "\n" }
        return text
    }
}
