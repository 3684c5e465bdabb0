import StoreWire

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
