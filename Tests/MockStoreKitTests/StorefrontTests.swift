import Foundation
import MockStoreTesting
import TestSupport
import Testing

@testable import MockStoreKit

/// `Storefront.current` and `Storefront.updates`: the storefront the customer is in now, and each one they move to.
/// A test waits for the next storefront, never for a time.
@Suite struct StorefrontTests {}

extension StorefrontTests {
    @Test func theCurrentStorefrontIsTheCataloguesAndATransactionsToo() async throws {
        let shop = try await StoreKitFixture.shared()
        let (current, bought) = try await shop.launch().run {
            (await Storefront.current, try await buyVerified(ProductID.credit))
        }
        let storefront = try #require(current, "the store answers")
        #expect(storefront.countryCode == "GBR")
        #expect(storefront.id == "143444")
        #expect(storefront.currency == Locale.Currency("GBP"))
        #expect(bought.storefront == storefront, "a storefront is its country and id")
        #expect(StoreKit.Storefront.self == Storefront.self)
    }

    @Test func aStorefrontSetByTheTestControlIsCurrentAndArrivesOnUpdates() async throws {
        let shop = try await StoreKitFixture.shared()
        let session = shop.launch()
        let before = await session.run { await Storefront.current }
        #expect(before?.countryCode == "GBR")
        let changed = try await session.run {
            try await withinTimeLimit {
                var updates = Storefront.updates.makeAsyncIterator()
                // The listener in place first, so the change comes after it.
                guard await updates.takePosition() else { return Storefront?.none }
                _ = try await shop.acting { try await shop.store.setStorefront("USA") }
                return await updates.next()
            }
        }
        let moved = try #require(changed, "the change arrives on updates")
        #expect(moved.countryCode == "USA")
        #expect(moved.id == "143441")
        #expect(moved.currency == Locale.Currency("USD"))
        let after = await session.run { await Storefront.current }
        #expect(after?.countryCode == "USA")
        #expect(after?.currency == Locale.Currency("USD"))
    }

    @Test func aSimulatedStorefrontFailureLeavesNoCurrentStorefront() async throws {
        let shop = try await StoreKitFixture.start()
        let session = shop.launch()
        _ = try await shop.store.fail(.storefront, with: .storeKit(.networkError), once: true)
        #expect(await session.run { await Storefront.current } == nil, "the store's simulated failure")
        #expect(await session.run { await Storefront.current }?.countryCode == "GBR", "the failure was for once")
    }

    @Test func theCurrentStorefrontIsNilWhenTheStoreIsOutOfReach() async throws {
        let shop = try await StoreKitFixture.start()
        let session = shop.launch()
        #expect(await session.run { await Storefront.current } != nil)
        #expect(await shop.store.stop() == 0)
        #expect(await session.run { await Storefront.current } == nil)
    }
}
