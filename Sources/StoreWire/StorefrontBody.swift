/// `GET /storekit/v1/storefront`: the storefront the customer is in now (StoreKit's `Storefront.current`), a mock
/// store addition (StoreKit reads it from the device's App Store account).
public struct StorefrontBody: Codable, Sendable, Equatable {
    /// ISO 3166-1 alpha-3, e.g. `GBR`.
    public var countryCode: String
    /// Apple's storefront id, e.g. `143444`.
    public var id: String
    /// ISO 4217, e.g. `GBP`.
    public var currency: String

    public init(countryCode: String, id: String, currency: String) {
        self.countryCode = countryCode
        self.id = id
        self.currency = currency
    }
}
