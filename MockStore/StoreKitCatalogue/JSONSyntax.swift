/// A check of JSON syntax (RFC 8259) that says where the text breaks: the byte offset of the first thing that is not
/// JSON and what it is, in words. It builds nothing; ``StoreKitFileReader`` decodes the file with `JSONDecoder` once
/// the syntax holds, and names a line and column from the offset.
struct JSONSyntax {
    /// Where the syntax breaks and how.
    struct Break: Error, Equatable {
        /// Bytes from the start of the text.
        var offset: Int
        var problem: String
    }

    /// What a well-formed text holds at its top level.
    enum TopLevel: Equatable { case object, other }

    /// Deeper than this is refused rather than followed (a hostile `[[[[…` would otherwise exhaust the stack).
    static let maximumDepth = 512

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The top level of `bytes` when they are one JSON value (whitespace around it), else where they break.
    static func check(_ bytes: [UInt8]) -> Result<TopLevel, Break> {
        var scanner = JSONSyntax(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.index = 3 }  // a UTF-8 byte-order mark
        do throws(Break) {
            scanner.skipWhitespace()
            let top: TopLevel = scanner.peek == UInt8(ascii: "{") ? .object : .other
            try scanner.value(depth: 0)
            scanner.skipWhitespace()
            guard scanner.index == bytes.count else { throw scanner.unexpected("after the JSON value") }
            return .success(top)
        } catch {
            return .failure(error)
        }
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = peek, [0x20, 0x09, 0x0A, 0x0D].contains(byte) { index += 1 }
    }

    private func unexpected(_ context: String = "") -> Break {
        let suffix = context.isEmpty ? "" : " " + context
        guard let byte = peek else { return Break(offset: index, problem: "the text ends too soon\(suffix)") }
        let shown = (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(byte)"
        return Break(offset: index, problem: "unexpected \(shown)\(suffix)")
    }

    private mutating func value(depth: Int) throws(Break) {
        guard depth < Self.maximumDepth else {
            throw Break(offset: index, problem: "nested deeper than \(Self.maximumDepth) levels")
        }
        guard let byte = peek else { throw unexpected("where a value was expected") }
        switch byte {
        case UInt8(ascii: "{"): try object(depth: depth)
        case UInt8(ascii: "["): try array(depth: depth)
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw unexpected("where a value was expected")
        }
    }

    private mutating func object(depth: Int) throws(Break) {
        index += 1
        skipWhitespace()
        if peek == UInt8(ascii: "}") { return index += 1 }
        while true {
            guard peek == UInt8(ascii: "\"") else { throw unexpected("where a key (a string) was expected") }
            try string()
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw unexpected("where ':' was expected") }
            index += 1
            skipWhitespace()
            try value(depth: depth + 1)
            skipWhitespace()
            guard try separator(closing: UInt8(ascii: "}")) else { return }
            skipWhitespace()
        }
    }

    private mutating func array(depth: Int) throws(Break) {
        index += 1
        skipWhitespace()
        if peek == UInt8(ascii: "]") { return index += 1 }
        while true {
            try value(depth: depth + 1)
            skipWhitespace()
            guard try separator(closing: UInt8(ascii: "]")) else { return }
            skipWhitespace()
        }
    }

    /// After a member: true at a comma (another follows), false at `closing` (the container ends).
    private mutating func separator(closing: UInt8) throws(Break) -> Bool {
        switch peek {
        case UInt8(ascii: ","):
            index += 1
            return true
        case closing:
            index += 1
            return false
        default:
            throw unexpected("where ',' or '\(Character(Unicode.Scalar(closing)))' was expected")
        }
    }

    private mutating func literal(_ word: String) throws(Break) {
        for expected in word.utf8 {
            guard peek == expected else { throw unexpected("in \(word)") }
            index += 1
        }
    }

    private mutating func string() throws(Break) {
        let start = index
        index += 1
        while let byte = peek {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 1
                try escape()
            case 0x00..<0x20:
                throw Break(offset: index, problem: "a control character (byte \(byte)) inside a string")
            default:
                index += 1
            }
        }
        throw Break(offset: start, problem: "a string that is never closed")
    }

    private mutating func escape() throws(Break) {
        guard let byte = peek else { throw unexpected("in a string's escape") }
        if Array(#""\/bfnrt"#.utf8).contains(byte) { return index += 1 }
        guard byte == UInt8(ascii: "u") else { throw unexpected("after '\\' in a string") }
        index += 1
        for _ in 0..<4 {
            guard let digit = peek, Self.isHexDigit(digit) else { throw unexpected("in a \\u escape") }
            index += 1
        }
    }

    private mutating func number() throws(Break) {
        if peek == UInt8(ascii: "-") { index += 1 }
        if peek == UInt8(ascii: "0") {
            index += 1
        } else {
            try digits("in a number")
        }
        if peek == UInt8(ascii: ".") {
            index += 1
            try digits("after a number's '.'")
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            try digits("in a number's exponent")
        }
    }

    /// One or more decimal digits.
    private mutating func digits(_ context: String) throws(Break) {
        guard let first = peek, Self.isDigit(first) else { throw unexpected(context) }
        while let byte = peek, Self.isDigit(byte) { index += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
