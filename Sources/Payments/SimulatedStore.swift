import Foundation

/// The store used until the App Store is switched on: one £5.00 pack, no server, no money taken.
/// Its purchases always succeed at once and need no finishing.
public struct SimulatedStore: StoreProvider {
    public let name = "simulated"
    public let takesMoney = false
    /// The text of a simulated top-up's ledger entry, word for word from the owner's note.
    public static let entryText = "Top-up (simulated, no money taken)"
    private let makeReference: @Sendable () -> String

    /// `makeReference` makes each simulated payment's reference (injected for tests).
    public init(makeReference: @escaping @Sendable () -> String = { "SIM-" + UUID().uuidString.lowercased() }) {
        self.makeReference = makeReference
    }

    public func products(for ids: [String]) async throws -> [StoreProduct] {
        let pack = StoreProduct(
            id: PackCatalogue.defaultProduct, type: "consumable", displayName: "£5 of credit",
            description: "£5.00 of credit (simulated: no money is taken)", displayPrice: "£5.00")
        return ids.contains(pack.id) ? [pack] : []
    }

    /// Returns the simulated payment's reference as the "signed transaction": it carries no signature.
    public func purchase(_ productID: String, appAccountToken: UUID?) async throws -> PurchaseOutcome {
        guard productID == PackCatalogue.defaultProduct else { throw StoreError.productUnavailable(productID) }
        return .success(signedTransaction: makeReference())
    }

    public func unfinished() async throws -> [String] { [] }
    public func finish(transactionID: String) async throws {}
    public func updates(after cursor: String?) async throws -> (signedTransactions: [String], cursor: String?) {
        ([], cursor)
    }
}
