/// Hexadecimal text for bytes.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Returns `bytes` as lowercase hexadecimal, two digits per byte.
    public static func encode(_ bytes: [UInt8]) -> String {
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Returns the bytes spelled by `s`, or nil if `s` has an odd length or any character other than a hex digit.
    ///
    /// Upper- and lowercase digits are accepted; whitespace, separators and a "0x" prefix are not.
    public static func decode(_ s: String) -> [UInt8]? {
        let text = Array(s.utf8)
        guard text.count.isMultiple(of: 2) else {
            return nil
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(text.count / 2)
        var index = 0
        while index < text.count {
            guard let high = value(of: text[index]), let low = value(of: text[index + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
