import Foundation
import Signing
import StoreWire
import Testing

@testable import MockStoreHTTP
@testable import MockStoreServer
@testable import StoreKitCatalogue

/// A notification is recorded with its claims and signed when first read: what is read is a JWS of exactly what
/// the purchase made (its transaction as it was then), the same JWS at every read, and what a restart finds.
@Suite struct DeferredNotificationTests {
    let fixedDate = Date(timeIntervalSince1970: 1_764_590_400)

    func records(_ router: MockStoreRouter) throws -> [TestNotificationRecord] {
        let answer = router.respond(to: HTTPRequest(method: "GET", path: "/test/v1/notifications"))
        return try JSONDecoder().decode(TestNotificationsBody.self, from: Data(answer.body)).notifications
    }

    @Test func aPurchasesNotificationIsSignedOnceWhenReadAndStaysTheSame() throws {
        let directory = try TemporaryDirectory()
        let authority = try TestCertificateAuthority.make(validFrom: fixedDate.addingTimeInterval(-86_400))
        let signer = JWSTransactionSigner.es256(authority: authority)
        let path = directory.file("store.sqlite")
        func router() throws -> MockStoreRouter {
            MockStoreRouter(
                store: MockStore(
                    configuration: .init(
                        catalogue: try StoreKitConfiguration.load(contentsOf: Repository.catalogue),
                        bundleId: "ai.voicedebrief.app", signer: signer,
                        rootCertificateDER: authority.root.derRepresentation, clock: ManualClock(fixedDate),
                        transactionIDs: SandboxTransactionIDs()),
                    database: try TransactionStore(path: path)))
        }
        let first = try router()
        let bought = first.respond(
            to: HTTPRequest(
                method: "POST", path: "/storekit/v1/purchases",
                body: Array(#"{"productId": "ai.voicedebrief.app.credit.500"}"#.utf8)))
        #expect(bought.status == 200)
        // Before it is read, the store holds the claims, not a signature.
        let stored = try TransactionStore(path: path).database
        defer { try? stored.close() }
        let raw = try stored.prepare("SELECT signed_payload FROM notifications").query { $0.text(at: 0) ?? "" }
        #expect(raw.count == 1 && DeferredNotification.isDeferred(raw[0]))

        let read = try records(first)
        let record = try #require(read.first)
        #expect(record.notificationType == .oneTimeCharge)
        let verifier = CertificateChainVerifier(trustedRoot: authority.root)
        let outer = try CompactJWS.parse(record.signedPayload)
        #expect(outer.header.alg == "ES256")
        try outer.verifyES256(chain: verifier, at: fixedDate)
        let payload = try JSONDecoder().decode(NotificationPayload.self, from: Data(outer.payload))
        #expect(payload.notificationType == .oneTimeCharge)
        #expect(payload.signedDate == Int64(fixedDate.timeIntervalSince1970 * 1_000))
        let inner = try CompactJWS.parse(try #require(payload.data?.signedTransactionInfo))
        try inner.verifyES256(chain: verifier, at: fixedDate)
        let transaction = try JSONDecoder().decode(SignedTransactionPayload.self, from: Data(inner.payload))
        #expect(transaction.transactionId == record.transactionId)

        // Read again, and after a restart: the same signature (ES256 signatures are random: it was kept).
        #expect(try records(first).first?.signedPayload == record.signedPayload)
        try first.store.close()
        let second = try router()
        #expect(try records(second).first?.signedPayload == record.signedPayload)
        try second.store.close()
    }

    @Test func theStoredFormReadsBack() throws {
        let deferred = DeferredNotification(
            payload: #"{"data":{"signedTransactionInfo":"mockstore:signedTransactionInfo"}}"#,
            transaction: #"{"transactionId":"2000000000000001"}"#)
        #expect(try DeferredNotification(stored: deferred.stored()) == deferred)
        let test = DeferredNotification(payload: #"{"notificationType":"TEST"}"#, transaction: nil)
        #expect(try DeferredNotification(stored: test.stored()) == test)
        #expect(DeferredNotification.isDeferred(test.stored()))
        #expect(!DeferredNotification.isDeferred("eyJhbGciOiJFUzI1NiJ9.e30.c2ln"))
        #expect(throws: MockStoreError.self) { try DeferredNotification(stored: "{not one}") }
    }
}
