import Foundation
import MockStoreTesting
import TestSupport
import Testing

@testable import MockStoreKit

/// Members Apple documents that code written from its pages uses: the price's format style, the purchase options
/// beside the token and the quantity, a renewal state in words, what renewal info says of the next renewal, the
/// app transaction id, and the configuration and session as a test on the main actor makes them.
@Suite struct DocumentedMembersTests {}

extension DocumentedMembersTests {
    @Test func thePriceFormattedWithItsStyleReadsAsTheDisplayPrice() async throws {
        let shop = try await StoreKitFixture.shared()
        let credit = try await shop.launch().run { try await product(ProductID.credit) }
        #expect(credit.price.formatted(credit.priceFormatStyle) == credit.displayPrice)
        #expect(credit.displayPrice == "£5.00")
        #expect(credit.priceFormatStyle.currencyCode == "GBP")
    }

    @Test func simulatingAskToBuyMakesThatPurchaseWaitAndNoOther() async throws {
        let shop = try await StoreKitFixture.shared()
        let (asked, notAsked, unfinished) = try await shop.launch().run {
            let credit = try await product(ProductID.credit)
            let asked = try await credit.purchase(options: [.simulatesAskToBuyInSandbox(true)])
            let notAsked = try await credit.purchase(options: [.simulatesAskToBuyInSandbox(false)])
            return (asked, notAsked, await ids(Transaction.unfinished))
        }
        #expect(asked == .pending)
        guard case .success(.verified(let bought)) = notAsked else {
            Issue.record("without Ask to Buy the purchase is made: \(notAsked)")
            return
        }
        #expect(unfinished == [bought.id])
        let stored = try await shop.acting { try await shop.store.transactions() }
        #expect(stored.count == 2)
    }

    @Test func aProductionStoreIgnoresTheSandboxesAskToBuy() async throws {
        var options = TestStore.Options()
        options.environment = .production
        try options.run(.inProcess)
        let store = try await TestStore.start(options)
        let shop = StoreKitFixture(store: store, root: Array(try await store.rootCertificate()), customer: nil)
        let result = try await shop.launch().run {
            try await product(ProductID.credit).purchase(options: [.simulatesAskToBuyInSandbox(true)])
        }
        guard case .success(.verified(let transaction)) = result else {
            Issue.record("in production the option is ignored and the purchase made: \(result)")
            return
        }
        #expect(transaction.environment == .production)
    }

    @Test func customOptionsOfEveryKindGoWithAPurchase() async throws {
        let shop = try await StoreKitFixture.shared()
        let options: Set<Product.PurchaseOption> = [
            .custom(key: "campaign", value: "winter"), .custom(key: "score", value: 4.5),
            .custom(key: "returning", value: true), .custom(key: "blob", value: Data([1, 2, 3])),
        ]
        #expect(options.count == 4)
        let transaction = try await shop.launch().run { try await buyVerified(ProductID.credit, options: options) }
        #expect(transaction.productID == ProductID.credit)
    }

    @Test func aRenewalStateSaysItselfInWords() {
        let states: [Product.SubscriptionInfo.RenewalState] = [
            .subscribed, .expired, .inBillingRetryPeriod, .inGracePeriod, .revoked,
        ]
        #expect(
            states.map(\.localizedDescription) == [
                "Subscribed", "Expired", "In Billing Retry Period", "In Grace Period", "Revoked",
            ])
        #expect(Product.SubscriptionInfo.RenewalState(rawValue: 9).localizedDescription.contains("9"))
    }

    @Test func renewalInfoSaysWhatTheNextRenewalCostsAndWhenTheRunBegan() async throws {
        let shop = try await StoreKitFixture.shared(catalogue: Repository.subscriptionCatalogue)
        let token = UUID()
        let (yearly, transaction, statuses) = try await shop.launch().run {
            let yearly = try await product(ProductID.proYearly)
            let transaction = try await buyVerified(ProductID.proYearly, options: [.appAccountToken(token)])
            return (yearly, transaction, try await Product.SubscriptionInfo.status(for: "21C0FFEE"))
        }
        let renewal = try #require(statuses.first).renewalInfo.unsafePayloadValue
        #expect(renewal.renewalPrice == yearly.price)
        #expect(renewal.currency == Locale.Currency(yearly.priceFormatStyle.currencyCode))
        #expect(renewal.recentSubscriptionStartDate == transaction.purchaseDate)
        #expect(renewal.eligibleWinBackOfferIDs.isEmpty)
        #expect(renewal.appAccountToken == token)
        #expect(!renewal.appTransactionID.isEmpty)
        #expect(renewal.appTransactionID == transaction.appTransactionID)
    }

    @Test func everyTransactionOfACustomerCarriesTheirAppTransactionID() async throws {
        let shop = try await StoreKitFixture.shared()
        let (first, second) = try await shop.launch().run {
            (try await buyVerified(ProductID.credit), try await buyVerified(ProductID.credit))
        }
        #expect(!first.appTransactionID.isEmpty)
        #expect(first.appTransactionID == second.appTransactionID)
        let other = try await StoreKitFixture.shared()
        let theirs = try await other.launch().run { try await buyVerified(ProductID.credit) }
        #expect(theirs.appTransactionID != first.appTransactionID)
    }

    @Test func aTransactionSaysItsStorefrontAndDescribesItselfAsItsPayload() async throws {
        let shop = try await StoreKitFixture.shared()
        let transaction = try await shop.launch().run { try await buyVerified(ProductID.credit) }
        #expect(transaction.storefront.currency == Locale.Currency("GBP"))
        #expect(transaction.storefrontCountryCode == "GBR")
        let described = try JSONSerialization.jsonObject(with: Data(transaction.debugDescription.utf8))
        #expect((described as? [String: Any])?["transactionId"] as? String == String(transaction.id))
    }

    @Test func aLapsedSubscriberRedeemsAWinBackOffer() async throws {
        let shop = try await StoreKitFixture.shared(catalogue: Repository.subscriptionCatalogue)
        let session = shop.launch()
        let first = try await session.run { try await buyVerified(ProductID.proYearly) }
        try await shop.acting { _ = try await shop.store.expire(String(first.originalID)) }
        let (offer, eligible, back) = try await session.run {
            let yearly = try await product(ProductID.proYearly)
            let offer = try #require(yearly.subscription?.winBackOffers.first, "the yearly plan has a win-back offer")
            let status = try await Product.SubscriptionInfo.status(for: "21C0FFEE").first
            let eligible = status?.renewalInfo.unsafePayloadValue.eligibleWinBackOfferIDs ?? []
            return (offer, eligible, try await buyVerified(ProductID.proYearly, options: [.winBackOffer(offer)]))
        }
        #expect(eligible.contains(try #require(offer.id)))
        #expect(back.offer?.type == .winBack)
        #expect(back.offer?.id == offer.id)
    }
}

extension DocumentedMembersTests {
    @Test func aConfigurationTakesTheRootAsTheStoreAnswersIt() async throws {
        let shop = try await StoreKitFixture.shared()
        let answered = try await shop.store.rootCertificate()
        let configuration = try MockStoreKitConfiguration(
            url: shop.store.url, rootCertificate: answered, customer: shop.customer)
        #expect(configuration.rootCertificate == shop.root)
        let result = try await MockStoreKitSession(configuration).run {
            try await product(ProductID.credit).purchase()
        }
        guard case .success(.verified) = result else {
            Issue.record("a purchase under the root as answered verifies: \(result)")
            return
        }
        #expect(throws: MockStoreKitConfigurationError.self) {
            try MockStoreKitConfiguration(url: shop.store.url, rootCertificate: Data("not a certificate".utf8))
        }
    }

    @MainActor @Test func aSessionRunsOnTheMainActorWithAClosureThatIsNotSendable() async throws {
        let shop = try await StoreKitFixture.shared()
        let model = MainActorModel()
        try await shop.launch().run {
            model.products = try await Product.products(for: [ProductID.credit])
        }
        #expect(model.products.map(\.id) == [ProductID.credit])
    }
}

/// What an app's view model on the main actor holds: not `Sendable`.
@MainActor private final class MainActorModel {
    var products: [Product] = []
}

extension DocumentedMembersTests {
    @Test func allStatusesGiveEachGroupTheCustomerSubscribedIn() async throws {
        let shop = try await StoreKitFixture.shared(catalogue: Repository.subscriptionCatalogue)
        let (none, subscribed, groups) = try await shop.launch().run {
            var none: [String] = []
            for await entry in Product.SubscriptionInfo.Status.all { none.append(entry.groupID) }
            let subscribed = try await buyVerified(ProductID.proYearly)
            _ = try await buyVerified(ProductID.coins)
            var groups: [(groupID: String, statuses: [Product.SubscriptionInfo.Status])] = []
            for await entry in Product.SubscriptionInfo.Status.all { groups.append(entry) }
            return (none, subscribed, groups)
        }
        #expect(none.isEmpty)
        #expect(groups.map(\.groupID) == ["21C0FFEE"])
        #expect(groups.first?.statuses.map(\.state) == [.subscribed])
        #expect(groups.first?.statuses.first?.transaction.unsafePayloadValue.originalID == subscribed.originalID)
    }
}
