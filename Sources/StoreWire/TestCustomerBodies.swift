/// One of the mock store's customers (`/test/v1/customers`): Apple's sandbox has many testers, each with their own
/// purchases, subscriptions, eligibility and storefront.
public struct TestCustomer: Codable, Sendable, Equatable {
    /// The name a test gives it: the device API's `X-Mock-Customer` header and the controls' `--customer`.
    public var name: String
    /// The storefront in force for the customer (ISO 3166-1 alpha-3).
    public var storefront: String
    /// The customer's `appTransactionId`, in every transaction signed for them.
    public var appTransactionId: String
    /// Whether this is the default customer, who acts when no customer is named (and who cannot be removed).
    public var isDefault: Bool

    public init(name: String, storefront: String, appTransactionId: String, isDefault: Bool) {
        self.name = name
        self.storefront = storefront
        self.appTransactionId = appTransactionId
        self.isDefault = isDefault
    }
}

/// `POST /test/v1/customers`: a new customer, in `storefront` (the catalogue's when missing).
public struct TestCustomerRequest: Codable, Sendable, Equatable {
    public var name: String
    public var storefront: String?

    public init(name: String, storefront: String? = nil) {
        self.name = name
        self.storefront = storefront
    }
}

/// `GET /test/v1/customers`: every customer, the default one first, then in the order they were added.
public struct TestCustomersBody: Codable, Sendable, Equatable {
    public var customers: [TestCustomer]
    public init(customers: [TestCustomer]) { self.customers = customers }
}

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
