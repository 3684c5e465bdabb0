import LedgerEntries

/// An app's packs: which product id buys how much credit, and the one offered when none is named. Each app has its
/// own (VoiceDebrief's is in `VoiceDebriefCredit`); a second pack is one more line there and one more product with
/// the same id in the store's catalogue.
public struct PackCatalogue: Sendable, Equatable {
    public var credits: [String: MicroCredits]
    /// The product offered when none is named; one of `credits`.
    public var defaultProduct: String

    public init(credits: [String: MicroCredits], defaultProduct: String) {
        precondition(credits[defaultProduct] != nil, "the default product \(defaultProduct) is not one of the packs")
        self.credits = credits
        self.defaultProduct = defaultProduct
    }

    /// The credit `productID` buys, times `quantity`.
    public func credit(for productID: String, quantity: Int = 1) throws -> MicroCredits? {
        guard let unit = credits[productID] else { return nil }
        return try unit.multiplied(by: Int64(quantity))
    }

    /// `productID` as a person reads it: "£5 of credit" (pence only when there are some: "£5.50 of credit"); a
    /// product that is not one of the packs by its id.
    public func name(of productID: String) -> String {
        guard let credit = credits[productID] else { return productID }
        let micros = credit.rawValue
        if micros >= 0 && micros % 1_000_000 == 0 { return "£\(micros / 1_000_000) of credit" }
        return "\(credit.formatted) of credit"
    }
}
