import Foundation
import MockStoreTesting
import Testing

@testable import StoreKit2Store

#if canImport(StoreKit)
    import StoreKit
#else
    import MockStoreKit
#endif

/// The example's `Store`, unchanged from Apple's pattern, against a running mockstore: products, the three kinds of
/// purchase, Ask to Buy through the updates listener, and a refund. Each test uses its own products (or counts from
/// where the previous left off), so the order they run in does not matter.
@Suite(.serialized)
@MainActor
struct StoreTests {
    @Test func theProductsLoadIntoThreeListsSortedByPrice() async throws {
        let (_, app) = try await Shop.open()

        #expect(app.fuel.map(\.id) == ["consumable.fuel.octane87", "consumable.fuel.octane89"])
        #expect(app.cars.map(\.id) == ["nonconsumable.car", "nonconsumable.racecar"])
        #expect(app.subscriptions.map(\.id) == ["subscription.standard", "subscription.premium", "subscription.pro"])
        #expect(app.fuel.allSatisfy { $0.type == .consumable })
        #expect(app.cars.allSatisfy { $0.type == .nonConsumable })
        #expect(app.subscriptions.allSatisfy { $0.type == .autoRenewable })
        #expect(app.subscriptions.map(\.price) == ["1.99", "4.99", "9.99"].map { Decimal(string: $0)! })
        #expect(app.subscriptions.allSatisfy { $0.subscription?.subscriptionGroupID == "5E1F0A2B" })
        #expect(app.cars.first?.displayName == "Car")
    }

    @Test func buyingFuelAddsToTheCountAndFinishesTheTransaction() async throws {
        let (store, app) = try await Shop.open()
        let before = app.fuelCount

        let transaction = try #require(try await app.purchase(app.fuel[0]))

        #expect(transaction.productID == "consumable.fuel.octane87")
        #expect(transaction.productType == .consumable)
        #expect(app.fuelCount == before + 1, "delivered before purchase(_:) returned")
        let held = try #require(try await store.transactions().first { $0.transactionId == String(transaction.id) })
        #expect(held.finished, "finished once delivered")
        #expect(await ids(Transaction.unfinished).contains(transaction.id) == false)
        #expect(await ids(Transaction.currentEntitlements).contains(transaction.id) == false, "never a consumable")
    }

    @Test func buyingACarMakesItPurchased() async throws {
        let (_, app) = try await Shop.open()
        let car = app.cars[0]
        #expect(try await app.isPurchased(car) == false)

        let transaction = try #require(try await app.purchase(car))

        #expect(transaction.productType == .nonConsumable)
        #expect(app.purchasedCars == [car])
        #expect(try await app.isPurchased(car))
        #expect(await ids(Transaction.currentEntitlements).contains(transaction.id))
    }

    @Test func buyingTheSubscriptionMakesTheGroupSubscribed() async throws {
        let (_, app) = try await Shop.open()
        #expect(app.subscriptionGroupStatus == nil, "never subscribed")
        let standard = app.subscriptions[0]

        let transaction = try #require(try await app.purchase(standard))

        #expect(transaction.productType == .autoRenewable)
        #expect(transaction.subscriptionGroupID == "5E1F0A2B")
        #expect(transaction.expirationDate.map { $0 > transaction.purchaseDate } == true)
        #expect(app.purchasedSubscriptions == [standard])
        #expect(app.subscriptionGroupStatus == .subscribed)
        #expect(app.subscriptionWillAutoRenew == true)
    }

    @Test func anAskToBuyPurchaseIsPendingThenArrivesThroughTheListenerWhenApproved() async throws {
        let (store, app) = try await Shop.open()
        let racecar = app.cars[1]
        try await store.setAskToBuy(true)
        let outcome = await Result { try await app.purchase(racecar) }
        try await store.setAskToBuy(false)

        #expect(try outcome.get() == nil, "pending: nothing to deliver yet")
        #expect(try await app.isPurchased(racecar) == false)
        let waiting = try #require(
            try await store.transactions().first { $0.productId == racecar.id && $0.status == .pending })

        try await store.approve(waiting.transactionId)

        try await until("the approved race car to arrive through Transaction.updates") {
            app.purchasedCars.contains(racecar)
        }
        #expect(await ids(Transaction.currentEntitlements).contains(UInt64(waiting.transactionId)!))
    }

    @Test func aPurchaseMadeOutsideTheAppArrivesThroughTheListenerAndIsCounted() async throws {
        let (store, app) = try await Shop.open()
        let before = app.fuelCount

        try await store.buy(app.fuel[1].id, quantity: 2)

        try await until("two tanks bought outside the app to be counted") { app.fuelCount == before + 2 }
    }

    @Test func aRefundArrivesThroughTheListenerAndTheCountGoesDown() async throws {
        let (store, app) = try await Shop.open()
        let bought = try #require(try await app.purchase(app.fuel[1]))
        let counted = app.fuelCount

        try await store.refund(String(bought.id))

        try await until("the refund to take the tank off the count") { app.fuelCount == counted - 1 }
        let held = try #require(try await store.transactions().first { $0.transactionId == String(bought.id) })
        #expect(held.revocationDate != nil)
    }
}

/// The transaction ids a sequence that ends (`unfinished`, `currentEntitlements`) gives, verified or not.
func ids(_ transactions: Transaction.Transactions) async -> [UInt64] {
    var found: [UInt64] = []
    for await result in transactions { found.append(result.unsafePayloadValue.id) }
    return found
}

extension Result where Failure == any Error {
    /// The outcome of `body`, thrown or returned, so a test can put a setting back before it checks.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
