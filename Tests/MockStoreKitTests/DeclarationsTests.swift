import Foundation
import TestSupport
import Testing

@testable import MockStoreKit

/// Declarations apps commonly use beside the core ones: StoreKit's module name as a qualifier, a product's own
/// latest transaction and entitlement, the redeemed offer, and subscription statuses as they change.
@Suite struct DeclarationsTests {}

extension DeclarationsTests {
    @Test func codeThatQualifiesWithTheModuleNameCompilesAndNamesTheSameTypes() async throws {
        let shop = try await StoreKitFixture.shared()
        let bought: StoreKit.Transaction = try await shop.launch().run { try await buyVerified(ProductID.credit) }
        let result: StoreKit.VerificationResult<StoreKit.Transaction>? = try await shop.launch().run {
            try await product(ProductID.credit).latestTransaction
        }
        #expect(result?.unsafePayloadValue.id == bought.id)
        #expect(StoreKit.AppStore.Environment.sandbox == AppStore.Environment.sandbox)
    }

    @Test func aProductKnowsItsLatestTransactionAndItsEntitlement() async throws {
        let shop = try await StoreKitFixture.shared(catalogue: Repository.subscriptionCatalogue)
        let (none, subscribed, latest, entitlement, entitlements) = try await shop.launch().run {
            let yearly = try await product(ProductID.proYearly)
            let none = await yearly.latestTransaction
            let subscribed = try await buyVerified(ProductID.proYearly)
            var all: [Transaction] = []
            for await result in yearly.currentEntitlements { all.append(result.unsafePayloadValue) }
            return (
                none, subscribed, await yearly.latestTransaction, await yearly.currentEntitlement, all
            )
        }
        #expect(none == nil)
        #expect(latest?.unsafePayloadValue.id == subscribed.id)
        #expect(entitlement?.unsafePayloadValue.id == subscribed.id)
        #expect(entitlements.map(\.id) == [subscribed.id])
    }

    @Test func anIntroductoryOfferRedeemedIsTheTransactionsOffer() async throws {
        let shop = try await StoreKitFixture.shared(catalogue: Repository.subscriptionCatalogue)
        let (intro, transaction) = try await shop.launch().run {
            let yearly = try await product(ProductID.proYearly)
            return (yearly.subscription?.introductoryOffer, try await buyVerified(ProductID.proYearly))
        }
        let offer = try #require(intro, "the catalogue's yearly subscription has an introductory offer")
        #expect(transaction.offer?.type == .introductory)
        #expect(transaction.offerType == .introductory)
        #expect(transaction.offer?.id == offer.id)
        let consumable = try await shop.launch().run { try await buyVerified(ProductID.coins) }
        #expect(consumable.offer == nil)
    }

    @Test func aRenewalIsASubscriptionStatusUpdate() async throws {
        let shop = try await StoreKitFixture.start(catalogue: Repository.subscriptionCatalogue)
        let session = shop.launch()
        let subscribed = try await session.run { try await buyVerified(ProductID.proYearly) }
        let status = try await session.run {
            try await withinTimeLimit {
                var statuses = Product.SubscriptionInfo.Status.updates.makeAsyncIterator()
                // The listener in place first, so the renewal comes after it.
                guard await statuses.takePosition() else { return Product.SubscriptionInfo.Status?.none }
                _ = try await shop.store.advanceClock(by: .years(1))
                return await statuses.next()
            }
        }
        let renewed = try #require(status).transaction.unsafePayloadValue
        #expect(renewed.originalID == subscribed.originalID)
        #expect(renewed.id != subscribed.id, "the renewal's transaction")
        #expect(status?.state == .subscribed)
    }
}
