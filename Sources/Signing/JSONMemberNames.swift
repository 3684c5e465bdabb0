import Foundation

/// Lists the member names of a JSON object, in order and with duplicates, which `JSONDecoder` cannot do (it keeps
/// the first of duplicate members silently).
///
/// RFC 7515 section 4 requires a JWS parser to reject duplicate header names or to use the last one; this makes
/// rejecting possible. Call it only on text that already parsed as JSON: it checks structure just enough not to
/// misread, and returns nil for anything it does not understand.
enum JSONMemberNames {
    static func of(_ bytes: [UInt8]) -> [String]? {
        var scanner = Scanner(bytes: bytes)
        return scanner.memberNames()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func memberNames() -> [String]? {
            skipWhitespace()
            guard consume(UInt8(ascii: "{")) else {
                return nil
            }
            var names: [String] = []
            skipWhitespace()
            if consume(UInt8(ascii: "}")) {
                return names
            }
            while true {
                skipWhitespace()
                guard let name = readString() else {
                    return nil
                }
                names.append(name)
                skipWhitespace()
                guard consume(UInt8(ascii: ":")), skipValue() else {
                    return nil
                }
                skipWhitespace()
                if consume(UInt8(ascii: ",")) {
                    continue
                }
                return consume(UInt8(ascii: "}")) ? names : nil
            }
        }

        private var current: UInt8? {
            index < bytes.count ? bytes[index] : nil
        }

        private mutating func consume(_ byte: UInt8) -> Bool {
            guard current == byte else {
                return false
            }
            index += 1
            return true
        }

        private mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0d {
                index += 1
            }
        }

        /// Reads a string token and returns its decoded value.
        private mutating func readString() -> String? {
            let start = index
            guard consume(UInt8(ascii: "\"")) else {
                return nil
            }
            var escaped = false
            while let byte = current, byte != UInt8(ascii: "\"") {
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    index += 1
                }
                index += 1
            }
            guard consume(UInt8(ascii: "\"")), index <= bytes.count else {
                return nil
            }
            let token = Array(bytes[start..<index])
            guard escaped else {
                return String(decoding: token.dropFirst().dropLast(), as: UTF8.self)
            }
            // Escapes (\u0061 and friends) are rare in member names; let Foundation decode them exactly.
            return try? JSONDecoder().decode(String.self, from: Data(token))
        }

        /// Skips one value of any type, including nested objects and arrays.
        private mutating func skipValue() -> Bool {
            skipWhitespace()
            guard let first = current else {
                return false
            }
            if first == UInt8(ascii: "\"") {
                return readString() != nil
            }
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                var depth = 0
                while let byte = current {
                    switch byte {
                    case UInt8(ascii: "\""):
                        guard readString() != nil else {
                            return false
                        }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                    default:
                        break
                    }
                    index += 1
                    if depth == 0 {
                        return true
                    }
                }
                return false
            }
            // A number, true, false or null: runs to the next delimiter.
            let start = index
            while let byte = current,
                byte != UInt8(ascii: ","), byte != UInt8(ascii: "}"), byte != UInt8(ascii: "]"),
                byte != 0x20, byte != 0x09, byte != 0x0a, byte != 0x0d
            {
                index += 1
            }
            return index > start
        }
    }
}
