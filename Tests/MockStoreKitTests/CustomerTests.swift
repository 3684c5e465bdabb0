import Foundation
import MockStoreKit
import MockStoreTesting
import Testing

/// A launch's `customer` (the store's `X-Mock-Customer`): each device sees only its own customer's transactions,
/// as each sandbox tester does.
@Suite struct CustomerTests {}

extension CustomerTests {
    @Test func eachCustomerSeesOnlyTheirOwnUnfinishedTransactions() async throws {
        let shop = try await StoreKitFixture.start()
        try await shop.store.addCustomer("alice")
        try await shop.store.addCustomer("bob")
        let alice = shop.launch { $0.customer = "alice" }
        let bob = shop.launch { $0.customer = "bob" }
        let hers = try await alice.run { try await buyVerified(ProductID.credit) }
        let his = try await bob.run { try await buyVerified(ProductID.credit, options: [.quantity(2)]) }
        #expect(await alice.run { await ids(Transaction.unfinished) } == [hers.id])
        #expect(await bob.run { await ids(Transaction.unfinished) } == [his.id])
        #expect(
            await shop.launch().run { await ids(Transaction.unfinished) } == [], "the default customer bought nothing")
        #expect(await alice.run { await ids(Transaction.all) } == [hers.id])
    }

    @Test func aCustomerCannotFinishAnothersTransaction() async throws {
        let shop = try await StoreKitFixture.start()
        try await shop.store.addCustomer("alice")
        let alice = shop.launch { $0.customer = "alice" }
        let hers = try await alice.run { try await buyVerified(ProductID.credit) }
        await shop.launch().run { await hers.finish() }
        #expect(
            await alice.run { await ids(Transaction.unfinished) } == [hers.id], "another device's finish is refused")
        await alice.run { await hers.finish() }
        #expect(await alice.run { await ids(Transaction.unfinished) } == [])
    }

    @Test func anUnknownCustomerIsRefused() async throws {
        let shop = try await StoreKitFixture.start()
        let stranger = shop.launch { $0.customer = "stranger" }
        let error = await #expect(throws: StoreKitError.self) {
            try await stranger.run { try await AppStore.sync() }
        }
        guard case .systemError(let reason) = error else {
            Issue.record("not a system error: \(String(describing: error))")
            return
        }
        #expect("\(reason)".contains("stranger"), "the store's words name the customer")
    }
}
