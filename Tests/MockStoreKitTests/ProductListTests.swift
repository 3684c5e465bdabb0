import AppStorePayments
import Foundation
import MockStoreKit
import Payments
import TestSupport
import Testing

/// The App Store provider reads a product list that holds auto-renewable subscriptions (the app sells consumables,
/// but a shared catalogue may sell more), through MockStoreKit's `Product.products(for:)`.
@Suite struct ProductListTests {
    @Test func theProviderReadsAListWithSubscriptionsFromTheRealStore() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LaunchedMockStore.start(
            dataDirectory: directory.file("data"), catalogue: Repository.subscriptionCatalogue)
        let session = MockStoreKitSession(MockStoreKitConfiguration(url: try #require(URL(string: store.url))))
        let products = try await session.run {
            try await AppStoreProvider().products(for: [
                "com.example.coins", "com.example.pro.yearly", "com.example.news.weekly",
            ])
        }
        #expect(Set(products.map(\.id)) == ["com.example.coins", "com.example.pro.yearly", "com.example.news.weekly"])
        let byID = Dictionary(uniqueKeysWithValues: products.map { ($0.id, $0) })
        #expect(byID["com.example.coins"]?.type == .consumable)
        #expect(byID["com.example.pro.yearly"]?.type == .autoRenewable)
        #expect(byID["com.example.news.weekly"]?.displayPrice == "$1.99")
        #expect(await store.stop() == 0)
    }
}
