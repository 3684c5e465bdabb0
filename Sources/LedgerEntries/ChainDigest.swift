/// A 32-byte chain value (an entry's `prev` or `mac`, an HMAC-SHA256), held as four words instead of a
/// 64-character String: no heap allocation per entry, and comparing two of them is four word compares.
///
/// The words hold the bytes in memory order, so `withUnsafeBytes` gives the MAC's bytes as written.
@usableFromInline package struct ChainDigest: Hashable, Sendable {
    var w0: UInt64
    var w1: UInt64
    var w2: UInt64
    var w3: UInt64

    /// Thirty-two zero bytes: the `prev` of a device's first signed entry.
    package static let zero = ChainDigest(w0: 0, w1: 0, w2: 0, w3: 0)

    init(w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64) {
        self.w0 = w0
        self.w1 = w1
        self.w2 = w2
        self.w3 = w3
    }

    /// The 32 bytes at `bytes`.
    package init(bytes: UnsafeRawPointer) {
        w0 = bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
        w1 = bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        w2 = bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
        w3 = bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
    }

    /// The 32 bytes of `bytes`, which must hold exactly 32.
    init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self = bytes.withUnsafeBytes { ChainDigest(bytes: $0.baseAddress!) }
    }

    /// Reads exactly 64 lowercase hexadecimal digits (the only form the ledger writes); nil for anything else,
    /// uppercase included, so that a digest and its text are one-to-one.
    init?(hex: UnsafeRawBufferPointer) {
        guard hex.count == 64, let base = hex.baseAddress else { return nil }
        guard let a = ChainDigest.decode16(base), let b = ChainDigest.decode16(base + 16),
            let c = ChainDigest.decode16(base + 32), let d = ChainDigest.decode16(base + 48)
        else { return nil }
        self.init(w0: a, w1: b, w2: c, w3: d)
    }

    /// Reads `text` as 64 lowercase hexadecimal digits.
    init?(hex text: String) {
        var copy = text
        guard let digest = copy.withUTF8({ ChainDigest(hex: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = digest
    }

    /// Whether two digests hold the same bytes, reading all of both whatever they hold (for MACs).
    package func equalsInConstantTime(_ other: ChainDigest) -> Bool {
        ((w0 ^ other.w0) | (w1 ^ other.w1) | (w2 ^ other.w2) | (w3 ^ other.w3)) == 0
    }

    /// The bytes, in order.
    var bytes: [UInt8] {
        var copy = self
        return withUnsafeBytes(of: &copy) { Array($0) }
    }

    /// The 64 lowercase hexadecimal digits.
    package var hex: String {
        String(unsafeUninitializedCapacity: 64) { buffer in
            writeHex(to: UnsafeMutableRawPointer(buffer.baseAddress!))
            return 64
        }
    }

    /// Appends the 64 lowercase hexadecimal digits to `out`.
    func appendHex(to out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: 64))
        out.withUnsafeMutableBytes { writeHex(to: $0.baseAddress! + start) }
    }

    /// Writes the 64 digits at `target`.
    func writeHex(to target: UnsafeMutableRawPointer) {
        ChainDigest.encode8(w0, to: target)
        ChainDigest.encode8(w1, to: target + 16)
        ChainDigest.encode8(w2, to: target + 32)
        ChainDigest.encode8(w3, to: target + 48)
    }

    // MARK: private

    /// Sixteen hex digits to the word holding their eight bytes in memory order; nil unless every digit is one of
    /// `0-9a-f`. Eight digits at a time, in registers.
    @inline(__always)
    static func decode16(_ digits: UnsafeRawPointer) -> UInt64? {
        guard let low = decode8(digits.loadUnaligned(as: UInt64.self)),
            let high = decode8(digits.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        else { return nil }
        return (UInt64(low) | UInt64(high) << 32).littleEndian
    }

    /// Eight ASCII digits (loaded little-endian) to their four bytes (little-endian), or nil.
    @inline(__always)
    private static func decode8(_ loaded: UInt64) -> UInt32? {
        let x = UInt64(littleEndian: loaded)
        let high: UInt64 = 0x8080_8080_8080_8080
        guard x & high == 0 else { return nil }
        // With every byte below 0x80 these additions never carry from one byte into the next.
        let isDigit = (x &+ 0x5050_5050_5050_5050) & ~(x &+ 0x4646_4646_4646_4646) & high
        let isLetter = (x &+ 0x1F1F_1F1F_1F1F_1F1F) & ~(x &+ 0x1919_1919_1919_1919) & high
        guard isDigit | isLetter == high else { return nil }
        // Each byte's nibble: its low four bits, plus 9 for a letter ('a' is 0x61).
        let nibbles = (x & 0x0F0F_0F0F_0F0F_0F0F) &+ (isLetter >> 7) &* 9
        // Pairs (high digit first) into bytes, then the four bytes together.
        var packed = ((nibbles & 0x00FF_00FF_00FF_00FF) << 4) | ((nibbles >> 8) & 0x00FF_00FF_00FF_00FF)
        packed = (packed | (packed >> 8)) & 0x0000_FFFF_0000_FFFF
        packed = (packed | (packed >> 16)) & 0xFFFF_FFFF
        return UInt32(truncatingIfNeeded: packed)
    }

    /// One word (eight bytes in memory order) as sixteen lowercase digits.
    @inline(__always)
    static func encode8(_ word: UInt64, to target: UnsafeMutableRawPointer) {
        let value = UInt64(littleEndian: word)
        for half in 0..<2 {
            // Four bytes to eight nibbles, each in its own byte, high nibble first.
            var x = (value >> (32 * UInt64(half))) & 0xFFFF_FFFF
            x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF
            x = (x | (x << 8)) & 0x00FF_00FF_00FF_00FF
            let nibbles = ((x >> 4) & 0x000F_000F_000F_000F) | ((x & 0x000F_000F_000F_000F) << 8)
            // 0-9 to '0'-'9', 10-15 to 'a'-'f': add '0', and 39 more where the nibble is 10 or more.
            let isLetter = ((nibbles &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
            let text = nibbles &+ 0x3030_3030_3030_3030 &+ isLetter &* 39
            target.storeBytes(of: text.littleEndian, toByteOffset: 8 * half, as: UInt64.self)
        }
    }
}

/// A `prev` or `mac` as an entry holds it: the 32 bytes when the text is 64 lowercase hexadecimal digits (always,
/// for what the ledger writes), the text itself otherwise, so that reading a line and writing it back never
/// changes it, and two values are equal exactly when their texts are.
@usableFromInline package enum ChainField: Hashable, Sendable {
    case digest(ChainDigest)
    case text(String)

    init(_ text: String) {
        if let digest = ChainDigest(hex: text) { self = .digest(digest) } else { self = .text(text) }
    }

    /// Reads the raw bytes of a string value that holds no escapes.
    init(rawText bytes: UnsafeRawBufferPointer) {
        if let digest = ChainDigest(hex: bytes) {
            self = .digest(digest)
        } else {
            self = .text(String(decoding: bytes, as: UTF8.self))
        }
    }

    var text: String {
        switch self {
        case .digest(let digest): return digest.hex
        case .text(let text): return text
        }
    }

    var digest: ChainDigest? {
        if case .digest(let digest) = self { return digest }
        return nil
    }
}
