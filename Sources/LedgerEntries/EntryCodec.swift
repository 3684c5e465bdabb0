import Platform

/// Writes and reads ledger lines: compact JSON objects in a fixed key order, one per line.
///
/// A signed line is `BODY,"mac":"<hex>"}\n`, where the MAC covers exactly the bytes of `BODY` as written, so
/// verifying never depends on re-serialising JSON. An unsigned line is `BODY}\n`.
public enum EntryCodec {
    /// The bytes a MAC covers: the line up to (not including) `,"mac":` or the closing brace.
    public static func body(of entry: LedgerEntry) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256 + (entry.receipt?.utf8.count ?? 0))
        appendBody(of: entry, to: &out)
        return out
    }

    /// Appends the body of `entry` to `out`.
    static func appendBody(of entry: LedgerEntry, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        appendKey("id", to: &out, first: true)
        entry.appendID(to: &out)
        appendKey("device", to: &out)
        appendString(entry.device, to: &out)
        appendKey("seq", to: &out)
        appendInt(entry.sequence, to: &out)
        appendKey("time", to: &out)
        out.append(UInt8(ascii: "\""))
        entry.time.appendISO8601(to: &out)
        out.append(UInt8(ascii: "\""))
        appendKey("kind", to: &out)
        appendString(entry.kind.rawValue, to: &out)
        if let feature = entry.feature {
            appendKey("feature", to: &out)
            appendString(feature, to: &out)
        }
        if let subject = entry.subject {
            appendKey("subject", to: &out)
            appendString(subject, to: &out)
        }
        appendKey("quantity", to: &out)
        appendInt(entry.quantity, to: &out)
        appendKey("amount", to: &out)
        appendInt(entry.amount.rawValue, to: &out)
        appendKey("balanceAfter", to: &out)
        appendInt(entry.balanceAfter.rawValue, to: &out)
        appendOptional("refersTo", entry.refersTo, to: &out)
        appendOptional("reason", entry.reason, to: &out)
        appendOptional("text", entry.text, to: &out)
        appendOptional("reference", entry.reference, to: &out)
        appendOptional("product", entry.product, to: &out)
        appendOptional("receipt", entry.receipt, to: &out)
        if let prev = entry.prevField {
            appendKey("prev", to: &out)
            appendChain(prev, to: &out)
        }
    }

    /// The whole line, with its terminating newline; `mac` is the hex MAC of `body`, or nil for an unsigned line.
    public static func line(body: [UInt8], mac: String?) -> [UInt8] {
        line(body: body, macField: mac.map(ChainField.init))
    }

    /// The whole line, with its terminating newline, after `body`: `macField` as held in an entry.
    static func line(body: [UInt8], macField: ChainField?) -> [UInt8] {
        var out = body
        out.reserveCapacity(body.count + 76)
        appendLineEnd(macField: macField, to: &out)
        return out
    }

    /// Appends what follows a body: the `mac` field when there is one, the closing brace, the newline.
    static func appendLineEnd(macField: ChainField?, to out: inout [UInt8]) {
        if let macField {
            appendKey("mac", to: &out)
            appendChain(macField, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        out.append(UInt8(ascii: "\n"))
    }

    /// The MAC-covered prefix of a line (without its newline): everything before `,"mac":"`, or nil if the line
    /// carries no MAC.
    public static func macCoveredPrefix(of line: UnsafeBufferPointer<UInt8>) -> Int? {
        // The mac field is always last: `,"mac":"` + 64 hex + `"}`.
        let tail = 8 + 64 + 2
        guard line.count > tail else { return nil }
        let start = line.count - tail
        let marker: StaticString = ",\"mac\":\""
        for index in 0..<marker.utf8CodeUnitCount where line[start + index] != marker.utf8Start[index] { return nil }
        return start
    }

    /// Parses one line (without its newline). Throws ``EntryParseError`` saying what is wrong.
    public static func parse(_ line: UnsafeBufferPointer<UInt8>) throws(EntryParseError) -> LedgerEntry {
        var parser = FlatJSONParser(line)
        var id: String?
        var device: String?
        var sequence: Int64?
        var time: Timestamp?
        var kind: EntryKind?
        var quantity: Int64?
        var amount: Int64?
        var balanceAfter: Int64?
        var entry = LedgerEntry(
            id: "", device: "", sequence: 0, time: Timestamp(milliseconds: 0), kind: .charge, amount: .zero,
            balanceAfter: .zero)
        var seen: UInt32 = 0
        try parser.begin()
        while let key = try parser.nextKey() {
            guard let field = EntryField(key) else {
                throw EntryParseError("unknown field \"\(String(decoding: key, as: UTF8.self))\"")
            }
            let bit = UInt32(1) << field.rawValue
            guard seen & bit == 0 else { throw EntryParseError("field \"\(field.name)\" appears twice") }
            seen |= bit
            switch field {
            case .id: id = try parser.string(for: field.name)
            case .device: device = try parser.string(for: field.name)
            case .seq: sequence = try parser.integer(for: field.name)
            case .time:
                guard let parsed = try parser.timestamp(for: field.name) else {
                    throw EntryParseError("field \"time\" is not a UTC time like 2026-11-29T18:06:49.123Z")
                }
                time = parsed
            case .kind:
                let raw = try parser.string(for: field.name)
                guard let parsed = EntryKind(rawValue: raw) else { throw EntryParseError("unknown kind \"\(raw)\"") }
                kind = parsed
            case .feature: entry.feature = try parser.string(for: field.name)
            case .subject: entry.subject = try parser.string(for: field.name)
            case .quantity: quantity = try parser.integer(for: field.name)
            case .amount: amount = try parser.integer(for: field.name)
            case .balanceAfter: balanceAfter = try parser.integer(for: field.name)
            case .refersTo: entry.refersTo = try parser.string(for: field.name)
            case .reason: entry.reason = try parser.string(for: field.name)
            case .text: entry.text = try parser.string(for: field.name)
            case .reference: entry.reference = try parser.string(for: field.name)
            case .product: entry.product = try parser.string(for: field.name)
            case .receipt: entry.receipt = try parser.string(for: field.name)
            case .prev: entry.prevField = ChainField(try parser.string(for: field.name))
            case .mac: entry.macField = ChainField(try parser.string(for: field.name))
            }
        }
        guard let id, !id.isEmpty else { throw EntryParseError("field \"id\" is missing or empty") }
        guard let device, !device.isEmpty else { throw EntryParseError("field \"device\" is missing or empty") }
        guard let sequence, sequence >= 1 else { throw EntryParseError("field \"seq\" is missing or below 1") }
        guard let time else { throw EntryParseError("field \"time\" is missing") }
        guard let kind else { throw EntryParseError("field \"kind\" is missing") }
        guard let quantity else { throw EntryParseError("field \"quantity\" is missing") }
        guard let amount else { throw EntryParseError("field \"amount\" is missing") }
        guard let balanceAfter else { throw EntryParseError("field \"balanceAfter\" is missing") }
        entry.id = id
        entry.device = device
        entry.sequence = sequence
        entry.time = time
        entry.kind = kind
        entry.quantity = quantity
        entry.amount = MicroCredits(amount)
        entry.balanceAfter = MicroCredits(balanceAfter)
        return entry
    }

    /// Parses one line given as bytes (without its newline).
    public static func parse(_ line: [UInt8]) throws(EntryParseError) -> LedgerEntry {
        let result: Result<LedgerEntry, EntryParseError> = line.withUnsafeBufferPointer { buffer in
            do throws(EntryParseError) { return .success(try parse(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    // MARK: writing

    private static func appendKey(_ key: StaticString, to out: inout [UInt8], first: Bool = false) {
        if !first { out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
    }

    private static func appendInt(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for the 20 digits of UInt64.max
        withUnsafeMutableBytes(of: &digits) { buffer in
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: buffer[index...])
        }
    }

    private static func appendOptional(_ key: StaticString, _ value: String?, to out: inout [UInt8]) {
        guard let value else { return }
        appendKey(key, to: &out)
        appendString(value, to: &out)
    }

    /// A `prev` or `mac`: straight from its 32 bytes, or its text (escaped as any string) when it is not hex.
    private static func appendChain(_ field: ChainField, to out: inout [UInt8]) {
        switch field {
        case .digest(let digest):
            out.append(UInt8(ascii: "\""))
            digest.appendHex(to: &out)
            out.append(UInt8(ascii: "\""))
        case .text(let text):
            appendString(text, to: &out)
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    static func appendString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Nearly every string needs no escape: then its bytes go in at once.
        let plain = value.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for byte in bytes where byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if plain == true {
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20, 0x7F:
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// Why a line could not be read.
public struct EntryParseError: Error, Equatable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// The fields of a line, as bit positions for duplicate detection.
enum EntryField: UInt32 {
    case id, device, seq, time, kind, feature, subject, quantity, amount, balanceAfter
    case refersTo, reason, text, reference, product, receipt, prev, mac

    init?(_ key: UnsafeBufferPointer<UInt8>) {
        // Pick the candidate by length and first byte, then confirm every byte.
        let candidate: EntryField
        switch (key.count, key.first ?? 0) {
        case (2, UInt8(ascii: "i")): candidate = .id
        case (3, UInt8(ascii: "s")): candidate = .seq
        case (3, UInt8(ascii: "m")): candidate = .mac
        case (4, UInt8(ascii: "t")): candidate = key[1] == UInt8(ascii: "i") ? .time : .text
        case (4, UInt8(ascii: "k")): candidate = .kind
        case (4, UInt8(ascii: "p")): candidate = .prev
        case (6, UInt8(ascii: "d")): candidate = .device
        case (6, UInt8(ascii: "a")): candidate = .amount
        case (6, UInt8(ascii: "r")): candidate = .reason
        case (7, UInt8(ascii: "f")): candidate = .feature
        case (7, UInt8(ascii: "s")): candidate = .subject
        case (7, UInt8(ascii: "p")): candidate = .product
        case (7, UInt8(ascii: "r")): candidate = .receipt
        case (8, UInt8(ascii: "q")): candidate = .quantity
        case (8, UInt8(ascii: "r")): candidate = .refersTo
        case (9, UInt8(ascii: "r")): candidate = .reference
        case (12, UInt8(ascii: "b")): candidate = .balanceAfter
        default: return nil
        }
        let name = candidate.name
        guard name.utf8CodeUnitCount == key.count, memcmp(name.utf8Start, key.baseAddress!, key.count) == 0 else {
            return nil
        }
        self = candidate
    }

    /// The key, without reflection (which is slow on a hot path).
    var name: StaticString {
        switch self {
        case .id: return "id"
        case .device: return "device"
        case .seq: return "seq"
        case .time: return "time"
        case .kind: return "kind"
        case .feature: return "feature"
        case .subject: return "subject"
        case .quantity: return "quantity"
        case .amount: return "amount"
        case .balanceAfter: return "balanceAfter"
        case .refersTo: return "refersTo"
        case .reason: return "reason"
        case .text: return "text"
        case .reference: return "reference"
        case .product: return "product"
        case .receipt: return "receipt"
        case .prev: return "prev"
        case .mac: return "mac"
        }
    }
}
