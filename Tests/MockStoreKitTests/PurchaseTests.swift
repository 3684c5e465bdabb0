import Foundation
import MockStoreKit
import StoreWire
import Testing

/// `Product.purchase(options:)`: a verified transaction with what was asked for, in `Transaction.unfinished` until
/// `finish()`.
@Suite struct PurchaseTests {}

extension PurchaseTests {
    @Test func aPurchaseGivesAVerifiedTransactionOfWhatWasAskedFor() async throws {
        let shop = try await StoreKitFixture.shared()
        let token = UUID()
        let verification = try await shop.launch().run {
            let result = try await product(ProductID.credit).purchase(options: [.appAccountToken(token), .quantity(2)])
            guard case .success(let verification) = result else { throw FixtureFailure.unexpected("\(result)") }
            return verification
        }
        guard case .verified(let transaction) = verification else {
            Issue.record("the store's own root must verify its purchase: \(verification)")
            return
        }
        #expect(try verification.payloadValue == transaction)
        #expect(transaction.productID == ProductID.credit)
        #expect(transaction.purchasedQuantity == 2)
        #expect(transaction.appAccountToken == token)
        #expect(transaction.price == Decimal(string: "10.00"), "the whole purchase: £5.00 twice")
        #expect(transaction.currency?.identifier == "GBP")
        #expect(transaction.environment == .sandbox)
        #expect(transaction.productType == .consumable)
        #expect(transaction.appBundleID == "ai.voicedebrief.app")
        #expect(transaction.ownershipType == .purchased)
        #expect(transaction.reason == .purchase)
        #expect(transaction.storefront.countryCode == "GBR")
        #expect(transaction.revocationDate == nil)
        #expect(transaction.deviceVerification.count == 48, "SHA-384 of the nonce and the device's id")
    }

    @Test func theTransactionKeepsWhatTheStoreSigned() async throws {
        let shop = try await StoreKitFixture.shared()
        let verification = try await shop.launch().run {
            let result = try await product(ProductID.credit).purchase()
            guard case .success(let verification) = result else { throw FixtureFailure.unexpected("\(result)") }
            return verification
        }
        let transaction = try verification.payloadValue
        let parts = verification.jwsRepresentation.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        #expect(parts.allSatisfy { !$0.isEmpty })
        #expect(verification.payloadData == transaction.jsonRepresentation)
        let payload = try JSONDecoder().decode(SignedTransactionPayload.self, from: transaction.jsonRepresentation)
        #expect(payload.transactionId == String(transaction.id))
        #expect(payload.productId == ProductID.credit)
        #expect(payload.quantity == 1)
        let header = try JSONSerialization.jsonObject(with: verification.headerData) as? [String: Any]
        #expect(header?["alg"] as? String == "ES256")
        #expect((header?["x5c"] as? [String])?.count == 3)
        #expect(verification.signatureData.count == 64, "ES256: r and s, 32 bytes each")
    }

    @Test func aTransactionIsUnfinishedUntilItIsFinished() async throws {
        let shop = try await StoreKitFixture.shared()
        let session = shop.launch()
        let transaction = try await session.run { try await buyVerified(ProductID.credit) }
        #expect(await session.run { await ids(Transaction.unfinished) } == [transaction.id])
        await session.run { await transaction.finish() }
        #expect(await session.run { await ids(Transaction.unfinished) } == [])
        #expect(try await shop.storedTransaction(transaction.id)?.finished == true)
        await session.run { await transaction.finish() }  // a second finish is fine
        #expect(try await shop.storedTransaction(transaction.id)?.finished == true)
    }

    @Test func aQuantityBelowOneIsRefusedBeforeTheStoreIsAsked() async throws {
        let shop = try await StoreKitFixture.shared()
        await #expect(throws: Product.PurchaseError.invalidQuantity) {
            try await shop.launch().run { try await product(ProductID.credit).purchase(options: [.quantity(0)]) }
        }
        #expect(try await shop.acting { try await shop.store.transactions() }.isEmpty)
    }
}
