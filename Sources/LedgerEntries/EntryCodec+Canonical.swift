import Platform

extension EntryCodec {
    /// Parses one line (without its newline), sharing strings with the lines before through `context`. Lines in
    /// the form ``body(of:)`` and ``line(body:mac:)`` write take a fast path; anything else (escapes, non-ASCII
    /// text, another key order, anything wrong) goes through the strict reader, which accepts exactly the same
    /// entries and says what is wrong with the rest.
    package static func parse(_ line: UnsafeBufferPointer<UInt8>, context: inout LineReadContext)
        throws(EntryParseError)
        -> LedgerEntry
    {
        if let entry = parseCanonical(UnsafeRawBufferPointer(line), context: &context) { return entry }
        return try parse(line)
    }

    /// ``parse(_:context:)`` into `slot` (uninitialised memory: initialised on return, left uninitialised when it
    /// throws), so that the entry is made where it is kept rather than made and copied there (the copy retains and
    /// releases each of its strings: a tenth of a parse). Returns ``EntryIDIndex/hash(_:)`` of its id, made from the
    /// line's bytes.
    package static func parse(
        _ line: UnsafeBufferPointer<UInt8>, context: inout LineReadContext, into slot: UnsafeMutablePointer<LedgerEntry>
    ) throws(EntryParseError) -> UInt64 {
        if let base = line.baseAddress, line.count >= 2 {
            var reader = CanonicalReader(base: base, count: line.count)
            if let idHash = reader.read(context: &context, into: slot) { return idHash }
        }
        let entry = try parse(line)
        let idHash = entry.idHash
        slot.initialize(to: entry)
        return idHash
    }

    /// The fast path: nil unless the line is a ledger entry written the way the ledger writes them (keys once each,
    /// in the written order, ASCII strings without escapes, integers of at most 18 digits). Never accepts a line
    /// the strict reader would refuse, and reads the same entry from it (the tests compare the two).
    static func parseCanonical(_ line: UnsafeRawBufferPointer, context: inout LineReadContext) -> LedgerEntry? {
        guard let base = line.baseAddress, line.count >= 2 else { return nil }
        var reader = CanonicalReader(base: base.assumingMemoryBound(to: UInt8.self), count: line.count)
        // A slot on the stack: this path reads every line of a merge's files and of a small file's verify.
        return withUnsafeTemporaryAllocation(of: LedgerEntry.self, capacity: 1) { slot in
            guard reader.read(context: &context, into: slot.baseAddress!) != nil else { return nil }
            return slot.baseAddress!.move()
        }
    }
}

/// A cursor over one line for ``EntryCodec/parseCanonical(_:context:)``. Every method returns nil (or false) the
/// moment the bytes leave the canonical form; the strict reader then takes over.
private struct CanonicalReader {
    let base: UnsafePointer<UInt8>
    let end: Int
    var index = 0

    init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.end = count
    }

    /// Reads the line into `slot` (uninitialised memory) and returns its id's hash (``EntryIDIndex/hash(_:)``);
    /// nil, leaving the slot uninitialised, when the line is not in the canonical form.
    mutating func read(context: inout LineReadContext, into slot: UnsafeMutablePointer<LedgerEntry>) -> UInt64? {
        // The keys in the order the ledger writes them; each optional one is there or not. Any other order, an
        // unknown key, a key twice: not this path.
        guard has(.id), let id = idValue(), has(.device), let device = deviceValue(&context) else { return nil }
        guard has(.seq), let sequence = integer(), sequence >= 1 else { return nil }
        guard has(.time), index + 25 <= end, base[index + 24] == UInt8(ascii: "\""),
            let time = context.timestamp(base + index)
        else { return nil }
        index += 25
        guard has(.kind), let kindBytes = stringBytes(), let kind = CanonicalReader.kind(kindBytes) else {
            return nil
        }
        var feature: String?
        var subject: String?
        if has(.feature) {
            guard let value = stringBytes() else { return nil }
            feature = String(decoding: value, as: UTF8.self)
        }
        if has(.subject) {
            guard let value = stringBytes() else { return nil }
            subject = String(decoding: value, as: UTF8.self)
        }
        guard has(.quantity), let quantity = integer() else { return nil }
        guard has(.amount), let amount = integer() else { return nil }
        guard has(.balanceAfter), let balanceAfter = integer() else { return nil }
        var details: EntryDetails?
        guard readDetails(into: &details), let chain = chainValues(&context) else { return nil }
        guard index + 1 == end, base[index] == UInt8(ascii: "}") else { return nil }
        let held = id.packed ?? EntryIDStorage(ascii: id.bytes)
        // The values moved into the entry (`consume`): without it the entry was built, copied and destroyed, each
        // string retained and released once more on the way.
        LedgerEntry.initialize(
            slot, id: consume held, device: consume device, sequence: sequence, time: time, kind: kind,
            feature: consume feature, subject: consume subject, quantity: quantity, amount: MicroCredits(amount),
            balanceAfter: MicroCredits(balanceAfter), details: consume details, prevDigest: chain.prev,
            macDigest: chain.mac)
        return EntryIDIndex.hash(id.bytes)
    }

    // The values a file's lines share or that have a fixed form (a packed UUID id, the device before, the `mac`
    // before as `prev`, a `mac`) are taken by their length and closing quote, not scanned as strings: each is all
    // plain bytes, so its first quote is the one that closes it.

    /// The id's bytes, and its packed form when it is a lowercase UUID (read without a scan).
    @inline(__always)
    private mutating func idValue() -> (bytes: UnsafeRawBufferPointer, packed: EntryIDStorage?)? {
        if index + 36 < end, base[index + 36] == UInt8(ascii: "\""),
            let packed = EntryIDStorage.uuid(UnsafeRawBufferPointer(start: base + index, count: 36))
        {
            defer { index += 37 }
            return (UnsafeRawBufferPointer(start: base + index, count: 36), packed)
        }
        guard let bytes = stringBytes(), bytes.count > 0 else { return nil }
        return (bytes, nil)
    }

    /// The device: the one before (compared, not scanned) when it is the same.
    @inline(__always)
    private mutating func deviceValue(_ context: inout LineReadContext) -> String? {
        if let length = context.sameDevice(at: base + index, available: end - index) {
            index += length + 1
            return context.device
        }
        guard let bytes = stringBytes(), bytes.count > 0 else { return nil }
        return context.device(bytes)
    }

    /// The rarer fields of a refund, a top-up or a reversal, in their order, into `details` (left nil when there
    /// are none); false when one is not in the canonical form.
    @inline(__always)
    private mutating func readDetails(into details: inout EntryDetails?) -> Bool {
        guard index < end && base[index] == UInt8(ascii: ",") && !atChain() else { return true }
        var refersTo: String?
        var reason: String?
        var text: String?
        var reference: String?
        var product: String?
        var receipt: String?
        if has(.refersTo) { guard let value = string() else { return false }; refersTo = value }
        if has(.reason) { guard let value = string() else { return false }; reason = value }
        if has(.text) { guard let value = string() else { return false }; text = value }
        if has(.reference) { guard let value = string() else { return false }; reference = value }
        if has(.product) { guard let value = string() else { return false }; product = value }
        if has(.receipt) { guard let value = string() else { return false }; receipt = value }
        details = EntryDetails.make(
            refersTo: refersTo, reason: reason, text: text, reference: reference, product: product, receipt: receipt)
        return true
    }

    /// `prev` and `mac` when present (each nil when absent); nil when one is not 64 lowercase hex digits.
    @inline(__always)
    private mutating func chainValues(_ context: inout LineReadContext) -> (prev: ChainDigest?, mac: ChainDigest?)? {
        var prev: ChainDigest?
        var mac: ChainDigest?
        if has(.prev) {
            if let previous = context.previousMAC(at: base + index, available: end - index) {
                prev = previous
                index += 65
            } else {
                // Anything but 64 hex digits is not the ledger's own form.
                guard let value = stringBytes(), let digest = context.previousDigest(value) else { return nil }
                prev = digest
            }
        }
        if has(.mac) {
            if index + 64 < end, base[index + 64] == UInt8(ascii: "\"") {
                guard let digest = context.macDigest(UnsafeRawBufferPointer(start: base + index, count: 64)) else {
                    return nil
                }
                index += 65
                mac = digest
            } else {
                guard let value = stringBytes(), let digest = context.macDigest(value) else { return nil }
                mac = digest
            }
        }
        return (prev, mac)
    }

    /// Whether `literal` is at the cursor; if so the cursor moves past it.
    @inline(__always)
    private mutating func has(_ literal: KeyLiteral) -> Bool {
        if index + 16 <= end {
            let raw = UnsafeRawPointer(base + index)
            let a = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            let b = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            guard ((a ^ literal.word0) & literal.mask0) | ((b ^ literal.word1) & literal.mask1) == 0 else {
                return false
            }
            index += literal.count
            return true
        }
        guard index + literal.count <= end else { return false }
        for offset in 0..<literal.count where base[index + offset] != literal.byte(offset) { return false }
        index += literal.count
        return true
    }

    /// Whether the cursor is at `,"prev":` or `,"mac":` (the chain that ends every signed line).
    @inline(__always)
    private func atChain() -> Bool {
        guard index + 8 <= end else { return false }
        let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
        return (word ^ KeyLiteral.prev.word0) & KeyLiteral.prev.mask0 == 0
            || (word ^ KeyLiteral.mac.word0) & KeyLiteral.mac.mask0 == 0
    }

    /// A string value (its opening quote already read) without escapes, every byte printable ASCII (0x20 to 0x7F):
    /// its bytes; the cursor moves past the closing quote.
    @inline(__always)
    private mutating func stringBytes() -> UnsafeRawBufferPointer? {
        let start = index
        var cursor = start
        // Eight bytes at a time while no quote, backslash, control or non-ASCII byte is among them.
        while cursor + 8 <= end {
            let word = UnsafeRawPointer(base + cursor).loadUnaligned(as: UInt64.self)
            if CanonicalReader.isPlain(word) { cursor += 8 } else { break }
        }
        while cursor < end {
            let byte = base[cursor]
            if byte == UInt8(ascii: "\"") {
                index = cursor + 1
                return UnsafeRawBufferPointer(start: base + start, count: cursor - start)
            }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
            cursor += 1
        }
        return nil
    }

    @inline(__always)
    private mutating func string() -> String? {
        guard let bytes = stringBytes() else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An integer as the strict reader takes it, of at most 18 digits (so it cannot overflow), followed by `,` or
    /// `}`.
    @inline(__always)
    private mutating func integer() -> Int64? {
        guard index < end else { return nil }
        var negative = false
        if base[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        let start = index
        var value: Int64 = 0
        while index < end {
            let digit = base[index] &- 0x30
            guard digit < 10 else { break }
            value = value &* 10 &+ Int64(digit)
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits <= 18, index < end else { return nil }
        guard digits == 1 || base[start] != 0x30 else { return nil }
        guard base[index] == UInt8(ascii: ",") || base[index] == UInt8(ascii: "}") else { return nil }
        if negative {
            guard value != 0 else { return nil }
            return -value
        }
        return value
    }

    /// Whether none of the eight bytes is a quote, a backslash, a control byte or non-ASCII.
    @inline(__always)
    private static func isPlain(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        // A byte is "zero" in one of these when it is a quote, a backslash, or below 0x20.
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        let hasControl = (word &- (ones &* 0x20)) & ~word
        return (hasQuote | hasBackslash | hasControl | word) & high == 0
    }

    private static func kind(_ bytes: UnsafeRawBufferPointer) -> EntryKind? {
        switch bytes.count {
        case 6:
            if matches(bytes, "charge") { return .charge }
            if matches(bytes, "refund") { return .refund }
            return nil
        case 5: return matches(bytes, "topup") ? .topup : nil
        case 7: return matches(bytes, "opening") ? .opening : nil
        case 8: return matches(bytes, "reversal") ? .reversal : nil
        default: return nil
        }
    }

    private static func matches(_ bytes: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        bytes.count == word.utf8CodeUnitCount && memcmp(bytes.baseAddress!, word.utf8Start, bytes.count) == 0
    }
}

/// A key as written with what surrounds it (`,"amount":`, `,"device":"`), as two little-endian words and masks,
/// so that checking for it is two loads and a compare.
struct KeyLiteral {
    let word0: UInt64
    let mask0: UInt64
    let word1: UInt64
    let mask1: UInt64
    let count: Int

    init(_ word0: UInt64, _ mask0: UInt64, _ word1: UInt64, _ mask1: UInt64, _ count: Int) {
        self.word0 = word0
        self.mask0 = mask0
        self.word1 = word1
        self.mask1 = mask1
        self.count = count
    }

    /// Byte `offset` of the literal.
    func byte(_ offset: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: (offset < 8 ? word0 >> (8 * UInt64(offset)) : word1 >> (8 * UInt64(offset - 8))))
    }

    // Generated from the text in the comment above each (UTF-8, little-endian).
    // {"id":"
    static var id: KeyLiteral { KeyLiteral(0x0022_3A22_6469_227B, 0x00FF_FFFF_FFFF_FFFF, 0, 0, 7) }
    // ,"device":"
    static var device: KeyLiteral {
        KeyLiteral(0x6563_6976_6564_222C, ~0, 0x0000_0000_0022_3A22, 0x0000_0000_00FF_FFFF, 11)
    }
    // ,"seq":
    static var seq: KeyLiteral { KeyLiteral(0x003A_2271_6573_222C, 0x00FF_FFFF_FFFF_FFFF, 0, 0, 7) }
    // ,"time":"
    static var time: KeyLiteral { KeyLiteral(0x3A22_656D_6974_222C, ~0, 0x22, 0xFF, 9) }
    // ,"kind":"
    static var kind: KeyLiteral { KeyLiteral(0x3A22_646E_696B_222C, ~0, 0x22, 0xFF, 9) }
    // ,"feature":"
    static var feature: KeyLiteral { KeyLiteral(0x7275_7461_6566_222C, ~0, 0x0000_0000_223A_2265, 0xFFFF_FFFF, 12) }
    // ,"subject":"
    static var subject: KeyLiteral { KeyLiteral(0x6365_6A62_7573_222C, ~0, 0x0000_0000_223A_2274, 0xFFFF_FFFF, 12) }
    // ,"quantity":
    static var quantity: KeyLiteral { KeyLiteral(0x6974_6E61_7571_222C, ~0, 0x0000_0000_3A22_7974, 0xFFFF_FFFF, 12) }
    // ,"amount":
    static var amount: KeyLiteral { KeyLiteral(0x746E_756F_6D61_222C, ~0, 0x3A22, 0xFFFF, 10) }
    // ,"balanceAfter":
    static var balanceAfter: KeyLiteral { KeyLiteral(0x636E_616C_6162_222C, ~0, 0x3A22_7265_7466_4165, ~0, 16) }
    // ,"refersTo":"
    static var refersTo: KeyLiteral {
        KeyLiteral(0x7372_6566_6572_222C, ~0, 0x0000_0022_3A22_6F54, 0x0000_00FF_FFFF_FFFF, 13)
    }
    // ,"reason":"
    static var reason: KeyLiteral {
        KeyLiteral(0x6E6F_7361_6572_222C, ~0, 0x0000_0000_0022_3A22, 0x0000_0000_00FF_FFFF, 11)
    }
    // ,"text":"
    static var text: KeyLiteral { KeyLiteral(0x3A22_7478_6574_222C, ~0, 0x22, 0xFF, 9) }
    // ,"reference":"
    static var reference: KeyLiteral {
        KeyLiteral(0x6572_6566_6572_222C, ~0, 0x0000_223A_2265_636E, 0x0000_FFFF_FFFF_FFFF, 14)
    }
    // ,"product":"
    static var product: KeyLiteral { KeyLiteral(0x6375_646F_7270_222C, ~0, 0x0000_0000_223A_2274, 0xFFFF_FFFF, 12) }
    // ,"receipt":"
    static var receipt: KeyLiteral { KeyLiteral(0x7069_6563_6572_222C, ~0, 0x0000_0000_223A_2274, 0xFFFF_FFFF, 12) }
    // ,"prev":"
    static var prev: KeyLiteral { KeyLiteral(0x3A22_7665_7270_222C, ~0, 0x22, 0xFF, 9) }
    // ,"mac":"
    static var mac: KeyLiteral { KeyLiteral(0x223A_2263_616D_222C, ~0, 0, 0, 8) }
}
