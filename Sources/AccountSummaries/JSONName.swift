/// An object member's name as a JSON reader reads it: its escapes undone, so that two spellings of one name
/// (`"gross"` and `"gro\u0073s"`) are one name, as they are to Swift's decoder, DuckDB and Spark alike.
enum JSONName {
    /// The UTF-8 bytes of the name written `raw` (between its quotes): `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`
    /// and `\uXXXX` (a surrogate pair as one character) undone. An escape that is not JSON's is kept as written: the
    /// decoder refuses the file anyway.
    static func unescaped(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        guard raw.contains(UInt8(ascii: "\\")) else { return Array(raw) }
        var name: [UInt8] = []
        var index = raw.startIndex
        while index < raw.endIndex {
            guard raw[index] == UInt8(ascii: "\\"), index + 1 < raw.endIndex else {
                name.append(raw[index])
                index += 1
                continue
            }
            if let (bytes, length) = escape(raw, at: index) {
                name += bytes
                index += length
            } else {
                name.append(raw[index])
                index += 1
            }
        }
        return name
    }

    /// The bytes the escape at `index` stands for, and how many bytes it takes; nil when it is not JSON's.
    private static func escape(_ raw: ArraySlice<UInt8>, at index: Int) -> ([UInt8], Int)? {
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let byte = simple[raw[index + 1]] { return ([byte], 2) }
        guard raw[index + 1] == UInt8(ascii: "u"), let high = unit(raw, at: index + 2) else { return nil }
        if (0xD800..<0xDC00).contains(high), index + 12 <= raw.endIndex, raw[index + 6] == UInt8(ascii: "\\"),
            raw[index + 7] == UInt8(ascii: "u"), let low = unit(raw, at: index + 8), (0xDC00..<0xE000).contains(low)
        {
            let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            return scalar.map { (Array(String($0).utf8), 12) }
        }
        guard let scalar = Unicode.Scalar(high) else { return nil }
        return (Array(String(scalar).utf8), 6)
    }

    /// The four hex digits at `index` as a number, or nil.
    private static func unit(_ raw: ArraySlice<UInt8>, at index: Int) -> UInt32? {
        guard index + 4 <= raw.endIndex else { return nil }
        let digits = raw[index..<(index + 4)]
        guard digits.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }) else { return nil }
        return UInt32(String(decoding: digits, as: UTF8.self), radix: 16)
    }

    /// `name` as a message shows it: bare when it is printable ASCII with no space or quote, else in quotes with
    /// every other character as its code (`"gro\u{A}ss"`), so a name never breaks or forges a line of a message.
    static func shown(_ name: String) -> String {
        let plain = name.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && $0 != "\"" }
        guard plain, !name.isEmpty else {
            let inner = name.unicodeScalars.map { scalar in
                scalar.value >= 0x20 && scalar.value < 0x7F && scalar != "\"" && scalar != "\\"
                    ? String(scalar) : "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
            return "\"" + inner.joined() + "\""
        }
        return name
    }
}
