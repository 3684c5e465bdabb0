import AppStorePayments
import Foundation
import MockStoreKit
import MockStoreTesting
import Payments
import Signing
import StoreWire
import Testing

/// The app's provider, written against StoreKit 2's API only, over MockStoreKit: what it hands the top-up flow is
/// what Apple's StoreKit would (a JWS the server verifies itself).
@Suite struct AppStoreProviderTests {}

extension AppStoreProviderTests {
    @Test func aPurchaseIsASignedTransactionTheReceiptVerifierAccepts() async throws {
        let shop = try await StoreKitFixture.shared()
        let token = UUID()
        let outcome = try await shop.launch().run {
            try await AppStoreProvider().purchase(ProductID.credit, appAccountToken: token)
        }
        guard case .success(.signed(let signed)) = outcome else {
            Issue.record("not a signed success: \(outcome)")
            return
        }
        let verifier = ReceiptVerifier(
            method: .es256(root: try Certificate(derRepresentation: shop.root)), bundleID: "ai.voicedebrief.app",
            environment: .sandbox)
        let verified = try verifier.verify(signed)
        #expect(verified.payload.productId == ProductID.credit)
        #expect(verified.payload.appAccountToken == token.uuidString.lowercased())
        #expect(verified.payload.quantity == 1)
    }

    @Test func anAskToBuyPurchaseIsPendingWithNeitherReasonNorId() async throws {
        let shop = try await StoreKitFixture.start()
        try await shop.store.setAskToBuy(true)
        let outcome = try await shop.launch().run {
            try await AppStoreProvider().purchase(ProductID.credit, appAccountToken: nil)
        }
        #expect(outcome == .pending(reason: nil, transactionID: nil), "StoreKit says neither")
        #expect(try await shop.store.transactions().map(\.status) == [.pending])
    }

    @Test func aPurchaseIsUnfinishedUntilTheProviderFinishesIt() async throws {
        let shop = try await StoreKitFixture.start()
        let session = shop.launch()
        let provider = AppStoreProvider()
        let (first, second) = try await session.run {
            (try await Self.signedPurchase(provider), try await Self.signedPurchase(provider))
        }
        let (firstID, secondID) = (try Self.id(of: first), try Self.id(of: second))
        #expect(try await session.run { try await provider.unfinished() }.map(Self.id(of:)) == [firstID, secondID])
        try await session.run { try await provider.finish(transactionID: firstID) }
        #expect(try await session.run { try await provider.unfinished() }.map(Self.id(of:)) == [secondID])
        // A provider that never saw it finds it among the unfinished.
        try await session.run { try await AppStoreProvider().finish(transactionID: secondID) }
        #expect(try await session.run { try await provider.unfinished() }.isEmpty)
        #expect(try await shop.store.transactions().map(\.finished) == [true, true])
    }

    @Test func productsAreMappedWithTheirTypes() async throws {
        let shop = try await StoreKitFixture.shared()
        let products = try await shop.launch().run {
            try await AppStoreProvider().products(for: [ProductID.credit, "com.example.not.sold"])
        }
        #expect(
            products == [
                StoreProduct(
                    id: ProductID.credit, type: .consumable, displayName: "£5 of credit",
                    description: "£5 of credit to spend in VoiceDebrief", displayPrice: "£5.00")
            ])
    }

    @Test func aStoppedStoreMakesAPurchaseFailWithoutReachingIt() async throws {
        let shop = try await StoreKitFixture.start()
        let session = shop.launch()
        await shop.store.stop()
        let error = await #expect(throws: StoreError.self) {
            try await session.run { try await AppStoreProvider().purchase(ProductID.credit, appAccountToken: nil) }
        }
        #expect(error?.mayHaveReachedTheStore == false)
        guard case .networkError = error else {
            Issue.record("not a network error: \(String(describing: error))")
            return
        }
    }

    @Test func aPurchaseMadeWithATransactionThatCannotBeReadMayHaveReachedTheStore() async throws {
        let shop = try await StoreKitFixture.start()
        try await shop.store.fail(.verification, with: .verification(.invalidEncoding), once: true)
        let provider = AppStoreProvider()
        let session = shop.launch()
        let error = await #expect(throws: StoreError.self) {
            try await session.run { try await provider.purchase(ProductID.credit, appAccountToken: nil) }
        }
        #expect(error?.mayHaveReachedTheStore == true, "the store made the purchase: the app must not say it did not")
        let unfinished = try await session.run { try await provider.unfinished() }.map(Self.id(of:))
        #expect(unfinished == (try await shop.store.transactions()).map(\.transactionId))
        #expect(unfinished.count == 1)
    }

    @Test func theListenerDeliversTheLaunchsUnfinishedTransactions() async throws {
        let shop = try await StoreKitFixture.start()
        let outside = try await shop.store.buy(ProductID.credit)
        let session = shop.launch()
        let delivered = try await withinTimeLimit {
            let (stream, continuation) = AsyncStream.makeStream(of: SignedTransaction.self)
            let listener = await session.run { AppStoreProvider().listen { continuation.yield($0) } }
            defer { listener.cancel() }
            var deliveries = stream.makeAsyncIterator()
            return await deliveries.next()
        }
        #expect(try delivered.map(Self.id(of:)) == outside.transaction.transactionId)
    }

    /// A purchase of the credit through `provider`, as the JWS it hands over.
    private static func signedPurchase(_ provider: AppStoreProvider) async throws -> SignedTransaction {
        let outcome = try await provider.purchase(ProductID.credit, appAccountToken: nil)
        guard case .success(.signed(let signed)) = outcome else { throw FixtureFailure.unexpected("\(outcome)") }
        return signed
    }

    /// The transaction id `signed` claims.
    private static func id(of signed: SignedTransaction) throws -> String {
        try #require(signed.unverifiedTransactionID)
    }
}
