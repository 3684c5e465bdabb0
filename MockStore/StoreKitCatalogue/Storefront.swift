/// An App Store storefront: its ISO 3166-1 alpha-3 code, its currency and Apple's numeric storefront id. Every
/// storefront is in ``known`` (`StorefrontTable.swift`, generated from `Data/storefronts.tsv`).
public struct Storefront: Equatable, Sendable {
    /// e.g. `GBR`.
    public var code: String
    /// ISO 4217, e.g. `GBP`.
    public var currency: String
    /// Apple's storefront id, e.g. `143444`.
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
}
