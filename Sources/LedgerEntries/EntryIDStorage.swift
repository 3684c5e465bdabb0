/// An entry's id as an entry holds it. Most ids are the app's random charge ids, lowercase UUIDs: 36 characters,
/// which a String keeps in memory of its own (80 bytes from the allocator, a million of them in a big ledger, each
/// made, counted and freed). Those are held as their 32 hex digits' 16 bytes; any other id as its String. One id is
/// always held one way, so two entries have the same id exactly when they hold the same value.
enum EntryIDStorage: Sendable, Equatable {
    case text(String)
    /// The digits of a lowercase UUID, the first 16 in `high`, the last 16 in `low`, four bits each.
    case uuid(high: UInt64, low: UInt64)

    /// How `id` is held.
    init(_ id: String) {
        var copy = id
        if let packed = copy.withUTF8({ EntryIDStorage.uuid(UnsafeRawBufferPointer($0)) }) {
            self = packed
        } else {
            self = .text(id)
        }
    }

    /// How the id written as `bytes` (printable ASCII, checked by the reader) is held.
    init(ascii bytes: UnsafeRawBufferPointer) {
        self = EntryIDStorage.uuid(bytes) ?? .text(String(decoding: bytes, as: UTF8.self))
    }

    /// The id.
    var string: String {
        switch self {
        case .text(let text): return text
        case .uuid:
            return String(unsafeUninitializedCapacity: 36) { buffer in
                withBytes { buffer.baseAddress!.update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: 36) }
                return 36
            }
        }
    }

    /// Calls `body` with the id's UTF-8 bytes (a packed UUID written out on the stack, not in new memory).
    @inline(__always)
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        switch self {
        case .text(let text):
            var copy = text
            return copy.withUTF8 { body(UnsafeRawBufferPointer($0)) }
        case .uuid(let high, let low):
            var digits: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
            return withUnsafeMutableBytes(of: &digits) { buffer in
                EntryIDStorage.write(high, low, to: buffer)
                return body(UnsafeRawBufferPointer(rebasing: buffer[0..<36]))
            }
        }
    }

    /// Whether the id is `id`, without writing a packed UUID out as a String.
    func matches(_ id: String) -> Bool {
        switch self {
        case .text(let text): return text == id
        case .uuid: return self == EntryIDStorage(id)
        }
    }

    // MARK: packing

    /// Where each run of digits of a UUID (`8-4-4-4-12`) starts, and how long it is; a dash follows each but the
    /// last.
    private static let runs: [(start: Int, count: Int)] = [(0, 8), (9, 4), (14, 4), (19, 4), (24, 12)]

    /// The packed form of `bytes` when they are a lowercase UUID (`8-4-4-4-12` digits `0-9a-f`), else nil.
    private static func uuid(_ bytes: UnsafeRawBufferPointer) -> EntryIDStorage? {
        guard bytes.count == 36, let base = bytes.baseAddress, bytes[8] == 0x2D, bytes[13] == 0x2D,
            bytes[18] == 0x2D, bytes[23] == 0x2D
        else { return nil }
        // The 32 digits side by side, then decoded sixteen at a time.
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &digits) { buffer in
            let target = buffer.baseAddress!
            var at = 0
            for run in runs {
                (target + at).copyMemory(from: base + run.start, byteCount: run.count)
                at += run.count
            }
            guard let high = ChainDigest.decode16(target), let low = ChainDigest.decode16(target + 16) else {
                return nil
            }
            return .uuid(high: high, low: low)
        }
    }

    /// Writes the 36 characters of the UUID packed as `high` and `low` at the start of `buffer`.
    @inline(__always)
    private static func write(_ high: UInt64, _ low: UInt64, to buffer: UnsafeMutableRawBufferPointer) {
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { hex in
            let source = hex.baseAddress!
            ChainDigest.encode8(high, to: source)
            ChainDigest.encode8(low, to: source + 16)
            let target = buffer.baseAddress!
            var at = 0
            for run in runs {
                (target + run.start).copyMemory(from: source + at, byteCount: run.count)
                if run.start + run.count < 36 {
                    target.storeBytes(of: 0x2D, toByteOffset: run.start + run.count, as: UInt8.self)
                }
                at += run.count
            }
        }
    }
}
