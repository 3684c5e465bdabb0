import Foundation
import Payments
import Signing
import StoreWire
import Testing

@Suite struct ReceiptVerifierTests {
    func signed(
        by authority: TestCertificateAuthority, bundle: String = "ai.voicedebrief.app",
        environment: AppStoreEnvironment = .sandbox
    ) throws -> SignedTransaction {
        let payload = SignedTransactionPayload(
            transactionId: "2000000000000042", originalTransactionId: "2000000000000042", bundleId: bundle,
            productId: "ai.voicedebrief.app.credit.500", purchaseDate: 1_764_400_000_000,
            originalPurchaseDate: 1_764_400_000_000, quantity: 1, type: .consumable, signedDate: 1_764_400_000_000,
            environment: environment, price: 5000)
        let jws = try CompactJWS.sign(
            payload: Array(try JSONEncoder().encode(payload)),
            with: .es256(key: authority.leafKey, x5c: authority.chain, keyID: nil))
        return SignedTransaction(jwsRepresentation: jws)
    }

    func authority() throws -> TestCertificateAuthority {
        try TestCertificateAuthority.make(validFrom: Date(timeIntervalSince1970: 1_700_000_000))
    }
}

extension ReceiptVerifierTests {
    @Test func anyPinnedRootThatVerifiesWillDo() throws {
        let first = try authority()
        let second = try authority()
        let receipt = try signed(by: second)
        let both = ReceiptVerifier(
            methods: [.es256(root: first.root), .es256(root: second.root)], bundleID: "ai.voicedebrief.app",
            environment: .sandbox)
        #expect(try both.verify(receipt).transactionID == "2000000000000042")
        let onlyFirst = ReceiptVerifier(
            method: .es256(root: first.root), bundleID: "ai.voicedebrief.app", environment: .sandbox)
        #expect(throws: (any Error).self) { try onlyFirst.verify(receipt) }
    }

    @Test func theAlgorithmMustBeOneThisConfigurationAccepts() throws {
        let receipt = try signed(by: try authority())
        let secretOnly = ReceiptVerifier(
            method: .hs256(secret: Array("s".utf8)), bundleID: "ai.voicedebrief.app", environment: .sandbox)
        #expect(throws: ReceiptError.self) { try secretOnly.verify(receipt) }
    }

    @Test func wrongBundleAndEnvironmentAreRefused() throws {
        let ca = try authority()
        let verifier = ReceiptVerifier(
            method: .es256(root: ca.root), bundleID: "ai.voicedebrief.app", environment: .sandbox)
        #expect(throws: ReceiptError.self) { try verifier.verify(try signed(by: ca, bundle: "com.example")) }
        #expect(throws: ReceiptError.self) { try verifier.verify(try signed(by: ca, environment: .xcode)) }
        #expect(try verifier.verify(try signed(by: ca)).bundleID == "ai.voicedebrief.app")
    }

    @Test func anUnsignedReceiptIsNeverAccepted() throws {
        let payload = Array(#"{"transactionId":"1"}"#.utf8)
        let unsigned = SignedTransaction(jwsRepresentation: try CompactJWS.sign(payload: payload, with: .none))
        let verifier = ReceiptVerifier(
            method: .hs256(secret: Array("s".utf8)), bundleID: "ai.voicedebrief.app", environment: .sandbox)
        #expect(throws: (any Error).self) { try verifier.verify(unsigned) }
    }

    @Test func aReceiptFromTheOtherEnvironmentIsRefusedEitherWay() throws {
        let ca = try authority()
        let sandbox = ReceiptVerifier(
            method: .es256(root: ca.root), bundleID: "ai.voicedebrief.app", environment: .sandbox)
        let production = ReceiptVerifier(
            method: .es256(root: ca.root), bundleID: "ai.voicedebrief.app", environment: .production)
        let sandboxReceipt = try signed(by: ca, environment: .sandbox)
        let productionReceipt = try signed(by: ca, environment: .production)
        #expect(throws: ReceiptError.wrongEnvironment(expected: .sandbox, found: .production)) {
            try sandbox.verify(productionReceipt)
        }
        #expect(throws: ReceiptError.wrongEnvironment(expected: .production, found: .sandbox)) {
            try production.verify(sandboxReceipt)
        }
        #expect(try sandbox.verify(sandboxReceipt).environment == .sandbox)
        #expect(try production.verify(productionReceipt).environment == .production)
    }

    @Test func errorsSayWhatIsWrongWithoutSourceLocations() throws {
        let ca = try authority()
        let other = try authority()
        let verifier = ReceiptVerifier(
            method: .es256(root: ca.root), bundleID: "ai.voicedebrief.app", environment: .sandbox)
        for receipt in [
            try signed(by: other), SignedTransaction(jwsRepresentation: "not a JWS"), try signed(by: ca, bundle: "b"),
        ] {
            do {
                _ = try verifier.verify(receipt)
                Issue.record("\(receipt) verified")
            } catch {
                #expect(!"\(error)".contains(".swift:"), "\(error)")
                #expect(!"\(error)".contains("["), "\(error)")
            }
        }
    }
}
