import Foundation

/// The store used until the App Store is switched on: one pack, no server, no money taken. Its purchases always
/// succeed at once, as a ``SimulatedPurchase`` (no signature), and need no finishing.
public struct SimulatedStore: StoreProvider {
    public let name = "simulated"
    public let takesMoney = false
    /// The text of a simulated top-up's ledger entry, word for word from the owner's note.
    public static let entryText = "Top-up (simulated, no money taken)"
    /// The one product it sells.
    public let pack: StoreProduct
    private let makeReference: @Sendable () -> String

    /// A store selling `pack`; `makeReference` makes each simulated payment's reference (injected for tests).
    public init(
        pack: StoreProduct,
        makeReference: @escaping @Sendable () -> String = { "SIM-" + UUID().uuidString.lowercased() }
    ) {
        self.pack = pack
        self.makeReference = makeReference
    }

    public func products(for ids: [String]) async throws -> [StoreProduct] {
        ids.contains(pack.id) ? [pack] : []
    }

    public func purchase(_ productID: String, appAccountToken: UUID?) async throws -> PurchaseOutcome {
        guard productID == pack.id else { throw StoreError.productUnavailable(productID) }
        return .success(.simulated(SimulatedPurchase(reference: makeReference(), productID: productID)))
    }

    public func unfinished() async throws -> [SignedTransaction] { [] }
    public func finish(transactionID: String) async throws {}
    public func updates(after cursor: String?) async throws -> (
        signedTransactions: [SignedTransaction], cursor: String?
    ) {
        ([], cursor)
    }
}
