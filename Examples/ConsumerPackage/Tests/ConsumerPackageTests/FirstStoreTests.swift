import Foundation
import MockStoreTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A server team's first test, written from MockStore/README.md alone: a `TestStore` started with no environment
/// variable (the library finds, or builds, the `mockstore` of the checkout it came from, and its catalogue), two
/// customers buying, the App Store Server API through the typed client, a notification waited for, and the store's
/// process gone after.
@Suite struct FirstStoreTests {
    /// The consumable in the catalogue the checkout ships (`Catalogue/Credit.storekit`).
    static let credit = "ai.voicedebrief.app.credit.500"

    @Test func twoCustomersBuyAndTheServerAPISeesEachOnesOwn() async throws {
        for name in ["MOCKSTORE_BINARY", "MOCKSTORE_CATALOGUE", "MOCKSTORE_URL"] {
            #expect(ProcessInfo.processInfo.environment[name] == nil, "\(name) must not be set for this test")
        }
        let store = try await TestStore.start()
        _ = try await store.addCustomer("alice")
        _ = try await store.addCustomer("bob@example.com")
        let alices = try await store.acting(as: "alice") { try await store.buy(Self.credit) }.transaction
        let bobs = try await store.acting(as: "bob@example.com") { try await store.buy(Self.credit) }.transaction

        let info = try await store.serverAPI.transactionInfo(alices.transactionId)
        let payload = try Self.payload(of: info.signedTransactionInfo)
        #expect(payload.transactionId == alices.transactionId && payload.productId == Self.credit)
        let history = try await store.serverAPI.transactionHistory(bobs.transactionId)
        let ids = try history.signedTransactions.map { try Self.payload(of: $0).transactionId }
        #expect(ids == [bobs.transactionId], "Bob's history holds Bob's purchase only")

        await #expect {
            _ = try await store.serverAPI.transactionInfo("9999999999")
        } throws: { error in
            (error as? ServerAPIError)?.code == .transactionIdNotFound
        }

        try await store.refund(alices.transactionId)
        let refunds = try await store.notifications(of: .refund, count: 1, within: .seconds(30))
        #expect(refunds.map(\.transactionId) == [alices.transactionId])
        let refunded = try await store.serverAPI.refundHistory(alices.transactionId)
        #expect(refunded.signedTransactions.count == 1)

        let process = store.processIdentifier
        #expect(await store.stop() == 0)
        #expect(kill(process, 0) == -1 && errno == ESRCH, "the store's process is gone")
    }

    /// The payload of a signed transaction (the JWS's middle part), not verified: a test reading what it says.
    static func payload(of jws: String) throws -> SignedTransactionPayload {
        let parts = jws.split(separator: ".")
        try #require(parts.count == 3, "a JWS has three parts")
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let data = try #require(Data(base64Encoded: base64), "the payload is base64url")
        return try JSONDecoder().decode(SignedTransactionPayload.self, from: data)
    }
}
