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
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { buffer in
            buffer.copyMemory(from: bytes)
            buffer[15] = UInt8(bytes.count)
        }
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
}
