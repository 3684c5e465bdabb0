import Foundation
import MockStoreKit
import MockStoreTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A store out of reach: the calls that throw throw `StoreKitError.networkError`; the sequences, which never throw,
/// are empty; `finish()` returns.
@Suite struct UnreachableStoreTests {}

extension UnreachableStoreTests {
    @Test func syncBringsTheDeviceUpToDateWhileTheStoreRuns() async throws {
        let shop = try await StoreKitFixture.start()
        try await shop.launch().run { try await AppStore.sync() }
        try await shop.store.fail(.appStoreSync, with: .storeKit(.networkError))
        let error = await #expect(throws: StoreKitError.self, "sync asks the store (its simulated failure shows it)") {
            try await shop.launch().run { try await AppStore.sync() }
        }
        guard case .networkError = error else {
            Issue.record("not a network error: \(String(describing: error))")
            return
        }
    }

    @Test func syncThrowsANetworkErrorWhenTheStoreIsStopped() async throws {
        let shop = try await StoreKitFixture.start()
        let session = shop.launch()
        #expect(await shop.store.stop() == 0)
        let error = await #expect(throws: StoreKitError.self) { try await session.run { try await AppStore.sync() } }
        guard case .networkError(let failure) = error else {
            Issue.record("not a network error: \(String(describing: error))")
            return
        }
        #expect(failure.code == .cannotConnectToHost)
    }

    @Test func productsThrowANetworkErrorWhenNothingListens() async throws {
        let shop = try await StoreKitFixture.start()
        let session = shop.launch()
        await shop.store.stop()
        let error = await #expect(throws: StoreKitError.self) {
            try await session.run { try await Product.products(for: [ProductID.credit]) }
        }
        guard case .networkError(let failure) = error else {
            Issue.record("not a network error: \(String(describing: error))")
            return
        }
        #expect(failure.code == .cannotConnectToHost)
    }

    @Test func theSequencesAreEmptyAndFinishReturnsWhenTheStoreIsStopped() async throws {
        let shop = try await StoreKitFixture.start()
        let session = shop.launch()
        let bought = try await session.run { try await buyVerified(ProductID.credit) }
        #expect(await session.run { await ids(Transaction.unfinished) } == [bought.id])
        await shop.store.stop()
        await session.run { await bought.finish() }
        #expect(await session.run { await ids(Transaction.unfinished) } == [])
        #expect(await session.run { await ids(Transaction.all) } == [])
        #expect(await session.run { await Transaction.latest(for: ProductID.credit) } == nil)
    }
}
