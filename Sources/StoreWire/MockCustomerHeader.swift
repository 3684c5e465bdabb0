/// How requests name the customer they act for.
public enum MockCustomerHeader {
    /// The header the device API and the test controls read: `X-Mock-Customer: NAME` (a mock store addition).
    public static let name = "X-Mock-Customer"
    /// The customer every store has, who acts when a request names none.
    public static let defaultCustomer = "default"
    /// The longest name a customer may have.
    public static let maximumLength = 64

    /// Whether `text` may name a customer: 1 to 64 ASCII letters, digits, `-`, `_`, `.`, `@` or `+`, starting with
    /// a letter or a digit (a sandbox tester's e-mail address fits).
    public static func isValidName(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, bytes.count <= maximumLength, isAlphanumeric(first) else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || "-_.@+".utf8.contains($0) }
    }

    /// What a valid name is, in words, for messages.
    public static let nameRule =
        "1 to 64 ASCII letters, digits, '-', '_', '.', '@' or '+', starting with a letter or a digit"

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
