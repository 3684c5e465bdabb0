import Foundation
import MockStoreKit
import MockStoreTesting
import Signing
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `VerificationResult`: verified only under the configured root and with a good signature, as StoreKit checks what
/// the App Store signs.
@Suite struct VerificationTests {}

extension VerificationTests {
    @Test func aRootThatIsNotTheStoresVerifiesNothing() async throws {
        let shop = try await StoreKitFixture.shared()
        let foreign = try foreignRoot().derRepresentation
        try await expectEveryResultUnverified(shop, root: foreign)
    }

    @Test func noRootVerifiesNothing() async throws {
        let shop = try await StoreKitFixture.shared()
        try await expectEveryResultUnverified(shop, root: nil)
    }

    @Test func aSecondStoresRootDoesNotVerifyTheFirstStoresTransactions() async throws {
        let shop = try await StoreKitFixture.shared()
        let other = try await StoreKitFixture.start()
        #expect(other.root != shop.root, "every ephemeral store makes its own test CA")
        try await expectEveryResultUnverified(shop, root: other.root)
    }

    @Test func aSimulatedBadSignatureIsAnInvalidSignature() async throws {
        let shop = try await StoreKitFixture.start()
        try await shop.store.fail(.verification, with: .verification(.invalidSignature))
        let session = shop.launch()
        let result = try await session.run { try await product(ProductID.credit).purchase() }
        guard case .success(.unverified(let transaction, .invalidSignature)) = result else {
            Issue.record("not unverified with invalidSignature: \(result)")
            return
        }
        #expect(transaction.productID == ProductID.credit, "an unverified result still holds the claimed payload")
        let unfinished = await session.run { await results(Transaction.unfinished) }
        #expect(unfinished.map(\.unsafePayloadValue.id) == [transaction.id])
        #expect(unfinished.map(\.verificationError) == [.invalidSignature])
        try await shop.store.clearFailures()
        let cleared = await session.run { await results(Transaction.unfinished) }
        #expect(cleared.map(\.unsafePayloadValue.id) == [transaction.id])
        #expect(cleared.map(\.verificationError) == [nil], "the same transaction, signed well again")
    }

    /// The store garbles the payload itself: no transaction can be read from it, so there is none to hand over,
    /// verified or not. The purchase was made all the same, so it fails as an answer that cannot be read (it may
    /// have gone through); it is unfinished, and comes back once it can be read.
    @Test func aSimulatedGarbledPayloadLeavesNoTransactionToHandOver() async throws {
        let shop = try await StoreKitFixture.start()
        try await shop.store.fail(.verification, with: .verification(.invalidEncoding))
        let session = shop.launch()
        let error = await #expect(throws: StoreKitError.self) {
            try await session.run { try await product(ProductID.credit).purchase() }
        }
        guard case .networkError(let failure) = error else {
            Issue.record("not a network error: \(String(describing: error))")
            return
        }
        #expect(failure.code == .cannotParseResponse)
        let made = try await shop.store.transactions()
        #expect(made.map(\.status) == [.purchased], "the store made the purchase")
        #expect(await session.run { await ids(Transaction.unfinished) } == [], "none can be read")
        try await shop.store.clearFailures()
        let readable = await session.run { await ids(Transaction.unfinished) }
        #expect(readable.map(String.init) == made.map(\.transactionId))
    }

    /// A purchase, the unfinished list, `Transaction.all` and `latest(for:)` under `root`: each result
    /// `.unverified(_, .invalidCertificateChain)`, and its `payloadValue` throws.
    private func expectEveryResultUnverified(
        _ shop: StoreKitFixture, root: [UInt8]?, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let session = shop.launch { $0.rootCertificate = root }
        let (purchase, unfinished, all, latest) = try await session.run {
            let result = try await product(ProductID.credit).purchase()
            guard case .success(let verification) = result else { throw FixtureFailure.unexpected("\(result)") }
            return (
                verification, await results(Transaction.unfinished), await results(Transaction.all),
                await Transaction.latest(for: ProductID.credit)
            )
        }
        let everyResult = [purchase] + unfinished + all + [latest].compactMap { $0 }
        #expect(everyResult.count == 4, sourceLocation: sourceLocation)
        for result in everyResult {
            guard case .unverified(let transaction, let error) = result else {
                Issue.record("verified under a root that is not the store's", sourceLocation: sourceLocation)
                continue
            }
            #expect(error == .invalidCertificateChain, sourceLocation: sourceLocation)
            #expect(transaction.productID == ProductID.credit, sourceLocation: sourceLocation)
            #expect(
                throws: VerificationResult<Transaction>.VerificationError.invalidCertificateChain,
                sourceLocation: sourceLocation
            ) {
                try result.payloadValue
            }
        }
    }
}

extension VerificationTests {
    /// A transaction stamped for another device (its `deviceVerification` made with another id) is
    /// `.invalidDeviceVerification`, as StoreKit checks it; the device it was made for verifies it. A scripted store
    /// hands the real store's JWS, stamped for one device, to both.
    @Test func aTransactionStampedForAnotherDeviceIsAnInvalidDeviceVerification() async throws {
        let shop = try await StoreKitFixture.shared()
        let mine = UUID()
        let bought = try await shop.launch { $0.deviceVerificationID = mine }.run {
            try await product(ProductID.credit).purchase()
        }
        guard case .success(let result) = bought else {
            Issue.record("not bought: \(bought)")
            return
        }
        let body = #"{"signedTransactions":["\#(result.jwsRepresentation)"]}"#
        let scripted = try ScriptedHTTPServer { _ in .whole(status: 200, body: body) }
        defer { scripted.stop() }
        let url = try #require(URL(string: scripted.url))
        func unfinished(on device: UUID) async -> [VerificationResult<Transaction>] {
            let session = MockStoreKitSession(
                MockStoreKitConfiguration(url: url, rootCertificate: shop.root, deviceVerificationID: device))
            return await session.run {
                var found: [VerificationResult<Transaction>] = []
                for await result in Transaction.unfinished { found.append(result) }
                return found
            }
        }
        let elsewhere = await unfinished(on: UUID())
        #expect(elsewhere.count == 1 && elsewhere.first?.verificationError == .invalidDeviceVerification)
        let here = await unfinished(on: mine)
        #expect(here.count == 1 && here.first?.verificationError == nil, "the device it was stamped for")
    }
}
