/// An App Store storefront: its ISO 3166-1 alpha-3 code, its currency and Apple's numeric storefront id.
public struct Storefront: Equatable, Sendable {
    /// e.g. `GBR`.
    public var code: String
    /// ISO 4217, e.g. `GBP`.
    public var currency: String
    /// Apple's storefront id, e.g. `143444` (as published for the iTunes storefronts; GBR is not confirmed).
    public var storefrontId: String

    public init(code: String, currency: String, storefrontId: String) {
        self.code = code
        self.currency = currency
        self.storefrontId = storefrontId
    }

    /// The storefront with this alpha-3 code (any case), or `nil` if the mock store does not know it.
    public static func named(_ code: String) -> Storefront? {
        known.first { $0.code == code.uppercased() }
    }

    /// The storefronts the mock store knows; others are refused rather than given a guessed currency.
    public static let known: [Storefront] = [
        Storefront(code: "USA", currency: "USD", storefrontId: "143441"),
        Storefront(code: "FRA", currency: "EUR", storefrontId: "143442"),
        Storefront(code: "DEU", currency: "EUR", storefrontId: "143443"),
        Storefront(code: "GBR", currency: "GBP", storefrontId: "143444"),
        Storefront(code: "AUT", currency: "EUR", storefrontId: "143445"),
        Storefront(code: "BEL", currency: "EUR", storefrontId: "143446"),
        Storefront(code: "FIN", currency: "EUR", storefrontId: "143447"),
        Storefront(code: "GRC", currency: "EUR", storefrontId: "143448"),
        Storefront(code: "IRL", currency: "EUR", storefrontId: "143449"),
        Storefront(code: "ITA", currency: "EUR", storefrontId: "143450"),
        Storefront(code: "LUX", currency: "EUR", storefrontId: "143451"),
        Storefront(code: "NLD", currency: "EUR", storefrontId: "143452"),
        Storefront(code: "PRT", currency: "EUR", storefrontId: "143453"),
        Storefront(code: "ESP", currency: "EUR", storefrontId: "143454"),
        Storefront(code: "CAN", currency: "CAD", storefrontId: "143455"),
        Storefront(code: "SWE", currency: "SEK", storefrontId: "143456"),
        Storefront(code: "NOR", currency: "NOK", storefrontId: "143457"),
        Storefront(code: "DNK", currency: "DKK", storefrontId: "143458"),
        Storefront(code: "CHE", currency: "CHF", storefrontId: "143459"),
        Storefront(code: "AUS", currency: "AUD", storefrontId: "143460"),
        Storefront(code: "NZL", currency: "NZD", storefrontId: "143461"),
        Storefront(code: "JPN", currency: "JPY", storefrontId: "143462"),
    ]
}
