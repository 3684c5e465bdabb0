/// The one form of a device id: 1 to 64 ASCII letters, digits, `-` or `_`, starting with a letter or a digit. The
/// ledger makes lowercase UUIDs (``RandomIDs``); tests use shorter names of the same alphabet.
///
/// A device id names files (`ledger/<device>.jsonl`, `heads/<device>.json`), and it arrives in untrusted input (a
/// merged file's entries, an account's directory given to `join`, the `device` file): it is checked wherever it is
/// read, so no `/`, `..` or other path can ever reach a file name.
public enum DeviceID {
    /// The longest device id, in bytes.
    public static let maximumLength = 64

    /// Whether `text` is a device id.
    public static func isValid(_ text: String) -> Bool {
        let bytes = text.utf8
        guard let first = bytes.first, bytes.count <= maximumLength, isAlphanumeric(first) else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    /// Why `text` is not a device id, in plain words, or nil when it is one.
    public static func problem(with text: String) -> String? {
        guard !isValid(text) else { return nil }
        return "\"\(String(text.unicodeScalars.prefix(80).map(Self.printable).joined()))\" is not a device id "
            + "(1 to \(maximumLength) letters, digits, '-' or '_', starting with a letter or digit)"
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// A scalar as it can be shown on a terminal: control and format characters escaped.
    private static func printable(_ scalar: Unicode.Scalar) -> String {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator:
            return scalar.escaped(asASCII: true)
        default:
            return String(scalar)
        }
    }
}
