import Platform

/// What a reader keeps from one line to the next, so that what lines share is read once: the device string (a
/// file's million lines share one String instead of holding a million copies of it), the day of the line before
/// (lines written the same day do not work out the calendar again), and the `mac` of the line before (in a good
/// file it is the next line's `prev`, whose 64 hex digits are then compared rather than decoded). Feature keys and
/// subjects are not kept: short, they are Strings held in their own two words, and making one again from its bytes
/// measured cheaper than looking for it among those read lately (BENCHMARKS.md, issue 38).
package struct LineReadContext {
    private(set) var device: String
    private var deviceBytes: [UInt8]
    /// Whether the device's bytes are all ones a string holds as they are (printable ASCII, no quote or backslash):
    /// then the same bytes and a closing quote are the same device, without reading them as a string first.
    private var deviceIsPlain: Bool
    /// The first ten bytes of the last time read (`YYYY-MM-DD`) and its day, once a time has been read.
    private var date: (word: UInt64, tail: UInt16, days: Int64)?
    /// The hex digits of the last `mac` read, and what they decode to, once one has been read.
    private var macHex: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var mac: ChainDigest?

    package init(device: String = "") {
        self.device = device
        deviceBytes = Array(device.utf8)
        deviceIsPlain = LineReadContext.isPlain(deviceBytes)
    }

    /// The length of the device before, when the bytes at `bytes` (`available` of them) are its name and the quote
    /// that closes it; nil otherwise (then the value is read as a string).
    @inline(__always)
    func sameDevice(at bytes: UnsafePointer<UInt8>, available: Int) -> Int? {
        let count = deviceBytes.count
        guard deviceIsPlain, count < available, bytes[count] == UInt8(ascii: "\""),
            deviceBytes.withUnsafeBytes({ LineReadContext.same($0.baseAddress!, UnsafeRawPointer(bytes), count) })
        else { return nil }
        return count
    }

    private static func isPlain(_ bytes: [UInt8]) -> Bool {
        !bytes.isEmpty
            && bytes.allSatisfy { $0 >= 0x20 && $0 < 0x80 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }

    /// The device named by `bytes`: the shared instance when it is the same as the line before's.
    mutating func device(_ bytes: UnsafeRawBufferPointer) -> String {
        if bytes.count == deviceBytes.count,
            deviceBytes.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 })
        {
            return device
        }
        device = String(decoding: bytes, as: UTF8.self)
        deviceBytes = Array(bytes)
        deviceIsPlain = LineReadContext.isPlain(deviceBytes)
        return device
    }

    /// The time written in the 24 bytes at `bytes` (``Timestamp/init(iso8601Bytes:)``), its date worked out only
    /// when it is not the date of the time before; nil when it is not a time written that way.
    mutating func timestamp(_ bytes: UnsafePointer<UInt8>) -> Timestamp? {
        let raw = UnsafeRawPointer(bytes)
        let word = raw.loadUnaligned(as: UInt64.self)
        let tail = raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
        let days: Int64
        if let date, date.word == word, date.tail == tail {
            days = date.days
        } else {
            guard let parsed = Timestamp.days(iso8601Date: bytes) else { return nil }
            days = parsed
            date = (word, tail, parsed)
        }
        guard let clock = Timestamp.milliseconds(iso8601Clock: bytes) else { return nil }
        return Timestamp(milliseconds: days * 86_400_000 + clock)
    }

    /// The digest of a `prev` field's text (``ChainDigest/init(hex:)``): taken from the `mac` before when the
    /// digits are the same, decoded otherwise.
    func previousDigest(_ hex: UnsafeRawBufferPointer) -> ChainDigest? {
        if let mac, hex.count == 64, sameAsMAC(hex) { return mac }
        return ChainDigest(hex: hex)
    }

    /// The `mac` before, when the bytes at `bytes` (`available` of them) are its 64 digits and a closing quote:
    /// the `prev` of every line of a good file after its first.
    @inline(__always)
    func previousMAC(at bytes: UnsafePointer<UInt8>, available: Int) -> ChainDigest? {
        guard let mac, available > 64, bytes[64] == UInt8(ascii: "\""),
            sameAsMAC(UnsafeRawBufferPointer(start: bytes, count: 64))
        else { return nil }
        return mac
    }

    /// The digest of a `mac` field's text (``ChainDigest/init(hex:)``), kept for the next line's `prev`.
    mutating func macDigest(_ hex: UnsafeRawBufferPointer) -> ChainDigest? {
        guard let digest = ChainDigest(hex: hex) else { return nil }
        // Eight loads and stores, not a copy call.
        let raw = hex.baseAddress!
        macHex = (
            raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
            raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self),
            raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self),
            raw.loadUnaligned(fromByteOffset: 32, as: UInt64.self),
            raw.loadUnaligned(fromByteOffset: 40, as: UInt64.self),
            raw.loadUnaligned(fromByteOffset: 48, as: UInt64.self),
            raw.loadUnaligned(fromByteOffset: 56, as: UInt64.self)
        )
        mac = digest
        return digest
    }

    @inline(__always)
    private func sameAsMAC(_ hex: UnsafeRawBufferPointer) -> Bool {
        withUnsafeBytes(of: macHex) { LineReadContext.same($0.baseAddress!, hex.baseAddress!, 64) }
    }

    /// Whether the `count` bytes at `a` and `b` are the same, compared eight at a time in line (a call to
    /// `memcmp` for every line's device and `prev` was 2% of a cold load).
    @inline(__always)
    private static func same(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
        guard count >= 8 else { return memcmp(a, b, count) == 0 }
        var difference: UInt64 = 0
        var offset = 0
        while offset + 8 <= count {
            difference |=
                a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                ^ b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        if offset < count {
            // The last eight bytes, overlapping those compared already.
            difference |=
                a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                ^ b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        return difference == 0
    }
}
