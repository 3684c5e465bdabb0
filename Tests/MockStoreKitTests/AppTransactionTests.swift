import Foundation
import MockStoreKit
import MockStoreTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `AppTransaction`: the customer's app transaction, signed by the store and verified as transactions are, fetched
/// once a launch (`shared`) or again (`refresh()`).
@Suite struct AppTransactionTests {}

extension AppTransactionTests {
    @Test func theSharedAppTransactionIsTheCustomersVerified() async throws {
        let shop = try await StoreKitFixture.shared()
        let (bought, result) = try await shop.launch().run {
            (try await buyVerified(ProductID.credit), try await AppTransaction.shared)
        }
        let app = try result.payloadValue
        let claims = try #require(
            try JSONSerialization.jsonObject(with: bought.jsonRepresentation) as? [String: Any])
        let appTransactionID = try #require(claims["appTransactionId"] as? String, "a transaction names its app's")
        #expect(app.appTransactionID == appTransactionID)
        #expect(app.bundleID == "ai.voicedebrief.app")
        #expect(app.bundleID == bought.appBundleID)
        #expect(app.environment == .sandbox)
        #expect(app.originalPlatform == .iOS)
        #expect(app.appID == nil, "the sandbox leaves the app's id out")
        #expect(!app.deviceVerification.isEmpty, "stamped for this device")
        #expect(app.originalPurchaseDate <= app.signedDate)
        #expect(result.jwsRepresentation.split(separator: ".").count == 3)
        #expect(result.signedDate == app.signedDate)
        let payload = try #require(try JSONSerialization.jsonObject(with: app.jsonRepresentation) as? [String: Any])
        #expect(payload["appTransactionId"] as? String == appTransactionID)
        #expect(app.debugDescription.contains(appTransactionID))
        #expect(StoreKit.AppTransaction.self == AppTransaction.self)
    }

    @Test func refreshFetchesTheSameAppTransactionAgain() async throws {
        let shop = try await StoreKitFixture.shared()
        let (shared, refreshed) = try await shop.launch().run {
            (try await AppTransaction.shared, try await AppTransaction.refresh())
        }
        #expect(refreshed.verificationError == nil)
        #expect(refreshed.unsafePayloadValue.appTransactionID == shared.unsafePayloadValue.appTransactionID)
        #expect(refreshed.unsafePayloadValue.bundleID == "ai.voicedebrief.app")
    }

    @Test func theSharedAppTransactionIsKeptAfterItsFirstFetchAndRefreshAsksTheStore() async throws {
        let shop = try await StoreKitFixture.start()
        let session = shop.launch()
        let first = try await session.run { try await AppTransaction.shared }
        #expect(first.verificationError == nil)
        #expect(await shop.store.stop() == 0)
        let kept = try await session.run { try await AppTransaction.shared }
        #expect(kept == first, "the launch keeps the app transaction it fetched")
        let error = await #expect(throws: StoreKitError.self, "refresh asks the store, which is gone") {
            try await session.run { try await AppTransaction.refresh() }
        }
        guard case .networkError = error else {
            Issue.record("not a network error: \(String(describing: error))")
            return
        }
    }

    @Test func withoutARootTheAppTransactionIsUnverified() async throws {
        let shop = try await StoreKitFixture.shared()
        let result = try await shop.launch { $0.rootCertificate = nil }.run { try await AppTransaction.shared }
        guard case .unverified(let app, .invalidCertificateChain) = result else {
            Issue.record("not unverified with invalidCertificateChain: \(result)")
            return
        }
        #expect(app.bundleID == "ai.voicedebrief.app", "an unverified result still holds the claimed payload")
        let foreign = try foreignRoot().derRepresentation
        let other = try await shop.launch { $0.rootCertificate = foreign }.run { try await AppTransaction.shared }
        #expect(other.verificationError == .invalidCertificateChain)
    }

    @Test func aSimulatedBadSignatureIsAnInvalidSignature() async throws {
        let shop = try await StoreKitFixture.start()
        try await shop.store.fail(.verification, with: .verification(.invalidSignature))
        let result = try await shop.launch().run { try await AppTransaction.shared }
        #expect(result.verificationError == .invalidSignature)
        #expect(result.unsafePayloadValue.bundleID == "ai.voicedebrief.app")
    }

    @Test func aSimulatedAppTransactionFailureIsThrownOnceThenTheFetchWorks() async throws {
        let shop = try await StoreKitFixture.start()
        let session = shop.launch()
        _ = try await shop.store.fail(.appTransaction, with: .storeKit(.notEntitled), once: true)
        let error = await #expect(throws: StoreKitError.self) {
            try await session.run { try await AppTransaction.shared }
        }
        guard case .notEntitled = error else {
            Issue.record("the simulated failure, not \(String(describing: error))")
            return
        }
        let result = try await session.run { try await AppTransaction.shared }
        #expect(result.verificationError == nil)
    }

    @Test func aStoreOutOfReachThrowsANetworkError() async throws {
        let shop = try await StoreKitFixture.start()
        let session = shop.launch()
        #expect(await shop.store.stop() == 0)
        let error = await #expect(throws: StoreKitError.self) {
            try await session.run { try await AppTransaction.shared }
        }
        guard case .networkError(let failure) = error else {
            Issue.record("not a network error: \(String(describing: error))")
            return
        }
        #expect(failure.code == .cannotConnectToHost)
    }
}
