import CreditLedger

/// The app's packs: which product id buys how much credit. A second pack is one more line here and one more
/// product with the same id in `Catalogue/Credit.storekit`.
public struct PackCatalogue: Sendable {
    public var credits: [String: MicroCredits]

    public init(credits: [String: MicroCredits]) { self.credits = credits }

    /// The app's packs.
    public static let app = PackCatalogue(credits: [
        "ai.voicedebrief.app.credit.500": MicroCredits(5_000_000),
        "ai.voicedebrief.app.credit.1000": MicroCredits(10_000_000),
    ])

    /// The product offered when none is named.
    public static let defaultProduct = "ai.voicedebrief.app.credit.500"

    /// The credit `productID` buys, times `quantity`.
    public func credit(for productID: String, quantity: Int = 1) throws -> MicroCredits? {
        guard let unit = credits[productID] else { return nil }
        return try unit.multiplied(by: Int64(quantity))
    }
}
