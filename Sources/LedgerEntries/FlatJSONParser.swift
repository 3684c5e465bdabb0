/// A strict reader for one flat JSON object whose values are strings or integers: the shape of a ledger line.
///
/// It is fast because the shape is fixed, and strict because a ledger must not guess: whitespace outside strings,
/// floats, exponents, `-0`, leading zeros, values beyond Int64, invalid UTF-8, control characters and lone
/// surrogates are all rejected with a reason. Strings without escapes are taken straight from the bytes; strings
/// with escapes go through a slower, complete decoder.
struct FlatJSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var expectingFirst = true

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Reads the opening brace. Call before the first ``nextKey()``.
    mutating func begin() throws(EntryParseError) {
        guard peek() == UInt8(ascii: "{") else { throw EntryParseError("the line does not start with {") }
        index += 1
        expectingFirst = true
    }

    /// The next key (its value must then be read with ``string(for:)`` or ``integer(for:)``), or nil at the
    /// closing brace, after checking that nothing follows it.
    mutating func nextKey() throws(EntryParseError) -> UnsafeBufferPointer<UInt8>? {
        guard let next = peek() else { throw EntryParseError("the line ends before the object closes") }
        if next == UInt8(ascii: "}") {
            index += 1
            guard index == bytes.count else {
                throw EntryParseError("unexpected bytes after the object at byte \(index + 1)")
            }
            return nil
        }
        if expectingFirst {
            expectingFirst = false
        } else {
            guard next == UInt8(ascii: ",") else {
                throw EntryParseError("expected , or } at byte \(index + 1), found \(describe(next))")
            }
            index += 1
        }
        let key = try rawKey()
        guard peek() == UInt8(ascii: ":") else { throw EntryParseError("expected : after a key at byte \(index + 1)") }
        index += 1
        return key
    }

    /// The next value as a string.
    mutating func string(for name: StaticString) throws(EntryParseError) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw EntryParseError("field \"\(name)\" is not a string") }
        index += 1
        let start = index
        var hasEscape = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if hasEscape { return try FlatJSONParser.unescape(slice, name: name) }
                return try FlatJSONParser.makeString(slice, name: name)
            }
            if byte < 0x20 { throw EntryParseError("field \"\(name)\" holds a raw control character") }
            if byte == UInt8(ascii: "\\") {
                hasEscape = true
                index += 1  // skip the escaped byte; validated in unescape
            }
            index += 1
        }
        throw EntryParseError("field \"\(name)\" has no closing quote")
    }

    /// The next value as a written timestamp, read straight from the bytes; nil when it is not one.
    mutating func timestamp(for name: StaticString) throws(EntryParseError) -> Timestamp? {
        guard peek() == UInt8(ascii: "\""), index + 25 < bytes.count, bytes[index + 25] == UInt8(ascii: "\"") else {
            _ = try string(for: name)
            return nil
        }
        let value = Timestamp(iso8601Bytes: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<(index + 25)]))
        index += 26
        return value
    }

    /// The next value as an integer that fits in Int64.
    mutating func integer(for name: StaticString) throws(EntryParseError) -> Int64 {
        var negative = false
        if peek() == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        let start = index
        var magnitude: UInt64 = 0
        while let byte = peek(), byte >= 0x30, byte <= 0x39 {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(byte - 0x30))
            guard !o1, !o2 else { throw EntryParseError("field \"\(name)\" is beyond the range of a 64-bit integer") }
            magnitude = sum
            index += 1
        }
        let digits = index - start
        guard digits > 0 else { throw EntryParseError("field \"\(name)\" is not an integer") }
        guard !(digits > 1 && bytes[start] == 0x30) else {
            throw EntryParseError("field \"\(name)\" has a leading zero")
        }
        if let next = peek(), next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            throw EntryParseError("field \"\(name)\" must be a whole number, without a fraction or exponent")
        }
        if negative {
            guard magnitude != 0 else { throw EntryParseError("field \"\(name)\" is -0") }
            guard magnitude <= UInt64(Int64.max) + 1 else {
                throw EntryParseError("field \"\(name)\" is beyond the range of a 64-bit integer")
            }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else {
            throw EntryParseError("field \"\(name)\" is beyond the range of a 64-bit integer")
        }
        return Int64(magnitude)
    }

    // MARK: private

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func rawKey() throws(EntryParseError) -> UnsafeBufferPointer<UInt8> {
        guard peek() == UInt8(ascii: "\"") else { throw EntryParseError("expected a quoted key at byte \(index + 1)") }
        index += 1
        let start = index
        while let byte = peek(), byte != UInt8(ascii: "\"") {
            guard byte != UInt8(ascii: "\\"), byte >= 0x20 else {
                throw EntryParseError("a key holds an escape or control character")
            }
            index += 1
        }
        guard peek() != nil else { throw EntryParseError("a key has no closing quote") }
        let key = UnsafeBufferPointer(rebasing: bytes[start..<index])
        index += 1
        return key
    }

    private func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    private static func unescape(_ raw: UnsafeBufferPointer<UInt8>, name: StaticString) throws(EntryParseError)
        -> String
    {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        func hex4(_ at: Int) throws(EntryParseError) -> UInt32 {
            guard at + 4 <= raw.count else { throw EntryParseError("field \"\(name)\" has a short \\u escape") }
            var value: UInt32 = 0
            for k in at..<(at + 4) {
                let c = raw[k]
                let digit: UInt32
                switch c {
                case 0x30...0x39: digit = UInt32(c - 0x30)
                case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
                case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
                default: throw EntryParseError("field \"\(name)\" has a bad \\u escape")
                }
                value = value << 4 | digit
            }
            return value
        }
        while i < raw.count {
            let byte = raw[i]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                i += 1
                continue
            }
            guard i + 1 < raw.count else { throw EntryParseError("field \"\(name)\" ends inside an escape") }
            let code = raw[i + 1]
            i += 2
            switch code {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(i)
                i += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    guard i + 6 <= raw.count, raw[i] == 0x5C, raw[i + 1] == UInt8(ascii: "u") else {
                        throw EntryParseError("field \"\(name)\" has a lone surrogate")
                    }
                    let low = try hex4(i + 2)
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw EntryParseError("field \"\(name)\" has a lone surrogate")
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw EntryParseError("field \"\(name)\" has a lone surrogate")
                }
                guard let unicode = Unicode.Scalar(scalar) else {
                    throw EntryParseError("field \"\(name)\" has a bad \\u escape")
                }
                out.append(contentsOf: Array(String(Character(unicode)).utf8))
            default:
                throw EntryParseError("field \"\(name)\" has an unknown escape \\\(Character(Unicode.Scalar(code)))")
            }
        }
        return try out.withUnsafeBufferPointer { buffer throws(EntryParseError) in try makeString(buffer, name: name) }
    }

    /// A string from UTF-8 bytes, refusing invalid UTF-8 rather than repairing it. ASCII (nearly every ledger
    /// string) takes the fast path.
    static func makeString(_ bytes: UnsafeBufferPointer<UInt8>, name: StaticString) throws(EntryParseError) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        if isASCII(bytes) { return text }
        // Decoding repairs invalid sequences with U+FFFD, which changes the bytes: that is how invalid input shows.
        guard text.utf8.count == bytes.count, text.utf8.elementsEqual(bytes) else {
            throw EntryParseError("field \"\(name)\" is not valid UTF-8")
        }
        return text
    }

    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        var accumulated: UInt8 = 0
        while index < bytes.count {
            accumulated |= bytes[index]
            index += 1
        }
        return accumulated < 0x80
    }
}
