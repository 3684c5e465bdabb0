import Foundation
import MockStoreKit
import TestSupport
import Testing

/// `Product.products(for:)` as StoreKit 2 has it: the catalogue's fields, each product once, unknown ids left out.
@Suite struct ProductTests {}

extension ProductTests {
    @Test func aProductCarriesTheCataloguesFields() async throws {
        let shop = try await StoreKitFixture.shared()
        let products = try await shop.launch().run { try await Product.products(for: [ProductID.credit]) }
        #expect(products.count == 1)
        let credit = try #require(products.first)
        #expect(credit.id == ProductID.credit)
        #expect(credit.type == .consumable)
        #expect(credit.displayName == "£5 of credit")
        #expect(credit.description == "£5 of credit to spend in VoiceDebrief")
        #expect(credit.displayPrice == "£5.00")
        #expect(credit.price == Decimal(string: "5.00"))
        #expect(credit.isFamilyShareable == false)
        #expect(credit.subscription == nil, "a consumable has no subscription info")
    }

    @Test func aDuplicateIdComesOnceAndAnUnknownOneIsLeftOut() async throws {
        let shop = try await StoreKitFixture.shared()
        let products = try await shop.launch().run {
            try await Product.products(for: [ProductID.credit, "com.example.not.sold", ProductID.credit])
        }
        #expect(products.map(\.id) == [ProductID.credit])
        let none = try await shop.launch().run { try await Product.products(for: ["com.example.not.sold"]) }
        #expect(none.isEmpty, "an unknown id is no error, just absent")
    }

    @Test func noIdsAskTheStoreNothing() async throws {
        let shop = try await StoreKitFixture.start()
        // Were the store asked, this failure would be thrown.
        try await shop.store.fail(.loadProducts, with: .storeKit(.networkError))
        let products = try await shop.launch().run { try await Product.products(for: Set<String>()) }
        #expect(products.isEmpty)
        await #expect(throws: StoreKitError.self, "the failure is set: a list with an id asks the store") {
            try await shop.launch().run { try await Product.products(for: [ProductID.credit]) }
        }
    }

    @Test func aSubscriptionCarriesItsGroupPeriodAndIntroductoryOffer() async throws {
        let shop = try await StoreKitFixture.shared(catalogue: Repository.subscriptionCatalogue)
        let yearly = try await shop.launch().run { try await product(ProductID.proYearly) }
        #expect(yearly.type == .autoRenewable)
        #expect(yearly.displayPrice == "$99.99")
        #expect(yearly.price == Decimal(string: "99.99"))
        let subscription = try #require(yearly.subscription)
        #expect(subscription.subscriptionGroupID == "21C0FFEE")
        #expect(subscription.subscriptionPeriod.unit == .year)
        #expect(subscription.subscriptionPeriod.value == 1)
        let offer = try #require(subscription.introductoryOffer)
        #expect(offer.type == .introductory)
        #expect(offer.paymentMode == .freeTrial)
        #expect(offer.periodCount == 1)
        #expect(offer.period.unit == .week)
        #expect(offer.period.value == 2)
        #expect(offer.price == 0)
    }
}
