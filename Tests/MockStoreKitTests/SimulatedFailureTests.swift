import Foundation
import MockStoreKit
import MockStoreTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The store's simulated StoreKit failures (its `fail` control, as `SKTestSession.setSimulatedError`) arrive as the
/// `StoreKitError` and `Product.PurchaseError` StoreKit 2 throws.
@Suite struct SimulatedFailureTests {}

extension SimulatedFailureTests {
    @Test func loadingProductsFailsWithANetworkError() async throws {
        let shop = try await StoreKitFixture.start()
        try await shop.store.fail(.loadProducts, with: .storeKit(.networkError))
        let error = await #expect(throws: StoreKitError.self) {
            try await shop.launch().run { try await Product.products(for: [ProductID.credit]) }
        }
        guard case .networkError(let failure) = error else {
            Issue.record("not a network error: \(String(describing: error))")
            return
        }
        #expect(failure.code == .notConnectedToInternet)
    }

    @Test func loadingProductsFailsAsNotAvailableInTheStorefront() async throws {
        let shop = try await StoreKitFixture.start()
        try await shop.store.fail(.loadProducts, with: .storeKit(.notAvailableInStorefront), once: true)
        let session = shop.launch()
        let error = await #expect(throws: StoreKitError.self) {
            try await session.run { try await Product.products(for: [ProductID.credit]) }
        }
        guard case .notAvailableInStorefront = error else {
            Issue.record("not notAvailableInStorefront: \(String(describing: error))")
            return
        }
        let again = try await session.run { try await Product.products(for: [ProductID.credit]) }
        #expect(again.map(\.id) == [ProductID.credit], "a failure set once fails the next call only")
    }

    @Test(arguments: [
        ("Product.PurchaseError.purchaseNotAllowed", Product.PurchaseError.purchaseNotAllowed),
        ("Product.PurchaseError.productUnavailable", .productUnavailable),
        ("Product.PurchaseError.ineligibleForOffer", .ineligibleForOffer),
        ("SKError.Code.paymentNotAllowed", .purchaseNotAllowed),
        ("SKError.Code.storeProductNotAvailable", .productUnavailable),
    ])
    func aPurchaseFailsWithThePurchaseErrorSimulated(simulated: String, thrown: Product.PurchaseError) async throws {
        let shop = try await StoreKitFixture.start()
        let credit = try await shop.launch().run { try await product(ProductID.credit) }
        try await shop.store.fail(.purchase, with: StoreKitErrorName(rawValue: simulated))
        await #expect(throws: thrown) {
            try await shop.launch().run { try await credit.purchase() }
        }
        #expect(try await shop.store.transactions().isEmpty, "a failed purchase buys nothing")
    }

    @Test func aSimulatedCancellationIsTheUserCancelledResult() async throws {
        let shop = try await StoreKitFixture.start()
        try await shop.store.fail(.purchase, with: .storeKit(.userCancelled))
        let result = try await shop.launch().run { try await product(ProductID.credit).purchase() }
        #expect(result == .userCancelled)
        #expect(try await shop.store.transactions().isEmpty)
    }

    @Test func aSimulatedNetworkErrorOnPurchaseIsAStoreKitError() async throws {
        let shop = try await StoreKitFixture.start()
        try await shop.store.fail(.purchase, with: .storeKit(.networkError))
        let error = await #expect(throws: StoreKitError.self) {
            try await shop.launch().run { try await product(ProductID.credit).purchase() }
        }
        guard case .networkError = error else {
            Issue.record("not a network error: \(String(describing: error))")
            return
        }
    }
}
