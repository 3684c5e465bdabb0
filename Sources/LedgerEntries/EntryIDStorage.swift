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

    /// The packed form of `bytes` when they are a lowercase UUID (`8-4-4-4-12` digits `0-9a-f`), else nil.
    static func uuid(_ bytes: UnsafeRawBufferPointer) -> EntryIDStorage? {
        guard bytes.count == 36, let base = bytes.baseAddress, bytes[8] == 0x2D, bytes[13] == 0x2D,
            bytes[18] == 0x2D, bytes[23] == 0x2D
        else { return nil }
        // The 32 digits side by side (the runs of `8-4-4-4-12` moved by fixed-size loads and stores, not a copy
        // call per run), then decoded sixteen at a time.
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &digits) { buffer in
            let target = buffer.baseAddress!
            target.storeBytes(of: base.loadUnaligned(as: UInt64.self), as: UInt64.self)
            target.storeBytes(
                of: base.loadUnaligned(fromByteOffset: 9, as: UInt32.self), toByteOffset: 8, as: UInt32.self)
            target.storeBytes(
                of: base.loadUnaligned(fromByteOffset: 14, as: UInt32.self), toByteOffset: 12, as: UInt32.self)
            target.storeBytes(
                of: base.loadUnaligned(fromByteOffset: 19, as: UInt32.self), toByteOffset: 16, as: UInt32.self)
            target.storeBytes(
                of: base.loadUnaligned(fromByteOffset: 24, as: UInt64.self), toByteOffset: 20, as: UInt64.self)
            target.storeBytes(
                of: base.loadUnaligned(fromByteOffset: 32, as: UInt32.self), toByteOffset: 28, as: UInt32.self)
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
            let source = UnsafeRawPointer(hex.baseAddress!)
            ChainDigest.encode8(high, to: hex.baseAddress!)
            ChainDigest.encode8(low, to: hex.baseAddress! + 16)
            let target = buffer.baseAddress!
            let dash: UInt8 = 0x2D
            target.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
            target.storeBytes(of: dash, toByteOffset: 8, as: UInt8.self)
            target.storeBytes(
                of: source.loadUnaligned(fromByteOffset: 8, as: UInt32.self), toByteOffset: 9, as: UInt32.self)
            target.storeBytes(of: dash, toByteOffset: 13, as: UInt8.self)
            target.storeBytes(
                of: source.loadUnaligned(fromByteOffset: 12, as: UInt32.self), toByteOffset: 14, as: UInt32.self)
            target.storeBytes(of: dash, toByteOffset: 18, as: UInt8.self)
            target.storeBytes(
                of: source.loadUnaligned(fromByteOffset: 16, as: UInt32.self), toByteOffset: 19, as: UInt32.self)
            target.storeBytes(of: dash, toByteOffset: 23, as: UInt8.self)
            target.storeBytes(
                of: source.loadUnaligned(fromByteOffset: 20, as: UInt64.self), toByteOffset: 24, as: UInt64.self)
            target.storeBytes(
                of: source.loadUnaligned(fromByteOffset: 28, as: UInt32.self), toByteOffset: 32, as: UInt32.self)
        }
    }
}
