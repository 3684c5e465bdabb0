import Foundation
import MockStoreKit
import TestSupport
import Testing

/// Auto-renewable subscriptions through StoreKit 2's API (`Repository.subscriptionCatalogue`): introductory-offer
/// eligibility, `status(for:)` with its renewal info, and entitlements.
@Suite struct SubscriptionTests {}

extension SubscriptionTests {
    @Test func theIntroductoryOfferIsThereUntilTheCustomerSubscribes() async throws {
        let shop = try await StoreKitFixture.shared(catalogue: Repository.subscriptionCatalogue)
        let session = shop.launch()
        let (before, transaction, after, byGroup) = try await session.run {
            let subscription = try #require(try await product(ProductID.proYearly).subscription)
            let before = await subscription.isEligibleForIntroOffer
            let transaction = try await buyVerified(ProductID.proYearly)
            let byGroup = await Product.SubscriptionInfo.isEligibleForIntroOffer(for: subscription.subscriptionGroupID)
            return (before, transaction, await subscription.isEligibleForIntroOffer, byGroup)
        }
        #expect(before == true)
        #expect(after == false)
        #expect(byGroup == false)
        #expect(transaction.productType == .autoRenewable)
        #expect(transaction.subscriptionGroupID == "21C0FFEE")
        let expiry = try #require(transaction.expirationDate)
        #expect(expiry > transaction.purchaseDate)
    }

    @Test func theStatusOfASubscriptionIsSubscribedAndRenews() async throws {
        let shop = try await StoreKitFixture.shared(catalogue: Repository.subscriptionCatalogue)
        let session = shop.launch()
        let (transaction, statuses) = try await session.run {
            let transaction = try await buyVerified(ProductID.proYearly)
            return (transaction, try await Product.SubscriptionInfo.status(for: "21C0FFEE"))
        }
        #expect(statuses.count == 1)
        let status = try #require(statuses.first)
        #expect(status.state == .subscribed)
        let latest = try status.transaction.payloadValue
        #expect(latest.id == transaction.id)
        #expect(latest.productID == ProductID.proYearly)
        let renewal = try status.renewalInfo.payloadValue
        #expect(renewal.willAutoRenew)
        #expect(renewal.autoRenewPreference == ProductID.proYearly)
        #expect(renewal.currentProductID == ProductID.proYearly)
        #expect(renewal.originalTransactionID == transaction.originalID)
        #expect(renewal.environment == .sandbox)
    }

    @Test func aGroupWithNoSubscriptionHasNoStatus() async throws {
        let shop = try await StoreKitFixture.shared(catalogue: Repository.subscriptionCatalogue)
        let statuses = try await shop.launch().run { try await Product.SubscriptionInfo.status(for: "21C0FFEE") }
        #expect(statuses.isEmpty)
    }

    @Test func theSubscriptionIsACurrentEntitlementAndTheConsumableIsNot() async throws {
        let shop = try await StoreKitFixture.shared(catalogue: Repository.subscriptionCatalogue)
        let session = shop.launch()
        let (subscription, coins, entitlements, forProduct) = try await session.run {
            let subscription = try await buyVerified(ProductID.proYearly)
            let coins = try await buyVerified(ProductID.coins)
            return (
                subscription, coins, await results(Transaction.currentEntitlements),
                await ids(Transaction.currentEntitlements(for: ProductID.proYearly))
            )
        }
        #expect(entitlements.map(\.unsafePayloadValue.id) == [subscription.id])
        #expect(entitlements.map(\.verificationError) == [nil])
        #expect(forProduct == [subscription.id])
        #expect(!entitlements.contains { $0.unsafePayloadValue.id == coins.id })
        let none = await session.run { await ids(Transaction.currentEntitlements(for: ProductID.coins)) }
        #expect(none == [])
    }
}
