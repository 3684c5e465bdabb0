/// Unpadded base64url (RFC 4648 section 5), as JWS uses it (RFC 7515 section 2).
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Maps an ASCII byte to its 6-bit value, or 0xff for bytes outside the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xff, count: 256)
        for (index, character) in alphabet.enumerated() {
            table[Int(character)] = UInt8(index)
        }
        return table
    }()

    /// Returns `bytes` as base64url without padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        var text = [UInt8]()
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            text.append(alphabet[Int(group >> 18 & 0x3f)])
            text.append(alphabet[Int(group >> 12 & 0x3f)])
            text.append(alphabet[Int(group >> 6 & 0x3f)])
            text.append(alphabet[Int(group & 0x3f)])
            index += 3
        }
        switch bytes.count - index {
        case 1:
            let group = UInt32(bytes[index]) << 16
            text.append(alphabet[Int(group >> 18 & 0x3f)])
            text.append(alphabet[Int(group >> 12 & 0x3f)])
        case 2:
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            text.append(alphabet[Int(group >> 18 & 0x3f)])
            text.append(alphabet[Int(group >> 12 & 0x3f)])
            text.append(alphabet[Int(group >> 6 & 0x3f)])
        default:
            break
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Decodes unpadded base64url strictly: nil for anything that is not the canonical encoding of some bytes.
    ///
    /// Rejected: padding (`=`), standard-base64 `+` and `/`, whitespace, a length of 1 modulo 4, and non-zero unused
    /// bits in the last character. Strictness keeps each byte string to exactly one textual form, so a JWS cannot be
    /// altered textually while keeping its decoded content.
    public static func decode(_ s: String) -> [UInt8]? {
        decode(utf8: Array(s.utf8))
    }

    static func decode(utf8 text: [UInt8]) -> [UInt8]? {
        let remainder = text.count % 4
        guard remainder != 1 else {
            return nil
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(text.count * 3 / 4)
        var index = 0
        while index + 4 <= text.count {
            var group: UInt32 = 0
            for offset in 0..<4 {
                let value = values[Int(text[index + offset])]
                guard value != 0xff else {
                    return nil
                }
                group = group << 6 | UInt32(value)
            }
            bytes.append(UInt8(group >> 16 & 0xff))
            bytes.append(UInt8(group >> 8 & 0xff))
            bytes.append(UInt8(group & 0xff))
            index += 4
        }
        guard remainder > 0 else {
            return bytes
        }
        var group: UInt32 = 0
        for offset in 0..<remainder {
            let value = values[Int(text[index + offset])]
            guard value != 0xff else {
                return nil
            }
            group = group << 6 | UInt32(value)
        }
        if remainder == 2 {
            // 12 bits carry one byte; the low 4 bits must be zero.
            guard group & 0x0f == 0 else {
                return nil
            }
            bytes.append(UInt8(group >> 4 & 0xff))
        } else {
            // 18 bits carry two bytes; the low 2 bits must be zero.
            guard group & 0x03 == 0 else {
                return nil
            }
            bytes.append(UInt8(group >> 10 & 0xff))
            bytes.append(UInt8(group >> 2 & 0xff))
        }
        return bytes
    }
}
