/// The short strings (at most 15 bytes: those a String holds in itself) recently read from lines, so that a value
/// read again (a charge's feature key, its subject, repeated line after line) is not made again from its bytes.
/// Sixteen slots, each the value's bytes as two words and its String; a value not there takes the oldest slot.
struct ShortStringCache {
    private var slots: [(word0: UInt64, word1: UInt64, text: String)] = []
    private var next = 0

    /// The String of `bytes` (printable ASCII, checked by the reader): the one made before when it is in the cache.
    @inline(__always)
    mutating func string(_ bytes: UnsafeRawBufferPointer) -> String {
        guard bytes.count <= 15 else { return String(decoding: bytes, as: UTF8.self) }
        // The bytes and their count in two words (the count in the last byte, as no printable byte is below 0x20):
        // equal words, equal values.
        let words = ShortStringCache.words(bytes)
        for slot in slots.indices where slots[slot].word0 == words.0 && slots[slot].word1 == words.1 {
            return slots[slot].text
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if slots.count < 16 {
            slots.append((words.0, words.1, text))
        } else {
            slots[next] = (words.0, words.1, text)
            next = (next + 1) & 15
        }
        return text
    }

    /// `bytes` (at most 15) and their count in two words, read with a few overlapping loads rather than copied
    /// by a call: the bytes from the first on, zeros after them, the count in the last byte.
    @inline(__always)
    private static func words(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        let count = bytes.count
        let count64 = UInt64(truncatingIfNeeded: count)
        guard let base = bytes.baseAddress, count > 0 else { return (0, count64 << 56) }
        if count >= 8 {
            let first = UInt64(littleEndian: base.loadUnaligned(as: UInt64.self))
            // The last eight bytes, shifted so the ones past the first eight sit at the bottom.
            let last = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
            let rest = count > 8 ? last >> UInt64((16 - count) * 8) : 0
            return (first, rest | count64 << 56)
        }
        var first: UInt64
        if count >= 4 {
            let low = UInt64(UInt32(littleEndian: base.loadUnaligned(as: UInt32.self)))
            let high = UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
            first = low | high << UInt64((count - 4) * 8)
        } else {
            first = 0
            for offset in 0..<count {
                first |= UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) << (8 * offset)
            }
        }
        return (first, count64 << 56)
    }
}
