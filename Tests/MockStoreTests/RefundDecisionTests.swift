import Foundation
import Signing
import StoreTestControls
import StoreWire
import Testing

@testable import MockStoreCommand
@testable import MockStoreSQLite
@testable import MockStoreServer
@testable import StoreKitCatalogue

/// Partial refunds in the store: `refund --percentage`, and refund decisions from the consumption information a
/// server sends while a refund request is open (GRANT_PRORATED, GRANT_FULL, DECLINE).
@Suite struct RefundDecisionTests {
    static let secret = Array("refund-decision-secret".utf8)

    let directory: TemporaryDirectory
    let store: MockStore

    init() throws {
        directory = try TemporaryDirectory()
        store = MockStore(
            configuration: .init(
                catalogue: try StoreKitConfiguration.load(contentsOf: Repository.catalogue),
                bundleId: "ai.voicedebrief.app", signer: JWSTransactionSigner.hs256(secret: Self.secret),
                clock: ManualClock(fixedDate)),
            database: try TransactionStore(path: directory.file("store.sqlite")))
    }

    private func bought() throws -> String {
        _ = try store.purchases.purchase(PurchaseRequestBody(productId: "ai.voicedebrief.app.credit.500"))
        return try store.controls.testTransactions().transactions.last!.transactionId
    }

    private func payload(_ jws: String?) throws -> SignedTransactionPayload {
        let parsed = try CompactJWS.parse(jws ?? "")
        return try JSONDecoder().decode(SignedTransactionPayload.self, from: Data(parsed.payload))
    }

    private func consumption(_ body: String, for id: String) throws {
        try store.serverAPI.sendConsumption(id: id, version: .v2, body: Array(body.utf8))
    }

    private func latest(_ id: String) throws -> TestTransaction {
        try store.controls.testTransactions().transactions.first { $0.transactionId == id }!
    }

    /// The notifications about refunds (every purchase also sends its ONE_TIME_CHARGE).
    private func notificationTypes() throws -> [NotificationType] {
        try store.notifications.notificationRecords().notifications.map(\.notificationType).filter {
            $0 != .oneTimeCharge
        }
    }
}

extension RefundDecisionTests {
    @Test func aRefundWithAPercentageIsProrated() throws {
        let id = try bought()
        let answer = try store.refunds.refund(id: id, reason: .refundedDueToIssue, percentage: 33_333)
        let signed = try payload(answer.signedTransaction)
        #expect(signed.revocationType == .refundProrated)
        #expect(signed.revocationPercentage == 33_333)
        #expect(signed.revocationReason == .refundedDueToIssue)
        #expect(try latest(id).revocationPercentage == 33_333)
        #expect(try notificationTypes() == [.refund])
    }

    @Test func aRefundWithoutAPercentageIsFull() throws {
        let id = try bought()
        let signed = try payload(try store.refunds.refund(id: id, reason: nil).signedTransaction)
        #expect(signed.revocationType == .refundFull && signed.revocationPercentage == 100_000)
    }

    @Test(arguments: [0, 100_001, -5]) func aPercentageOutOfRangeIsRefused(_ percentage: Int) throws {
        let id = try bought()
        #expect(throws: MockStoreError.self) { try store.refunds.refund(id: id, reason: nil, percentage: percentage) }
    }

    @Test func grantProratedRefundsTheShareNotConsumed() throws {
        let id = try bought()
        _ = try store.refunds.requestRefund(id: id, reason: nil)
        try consumption(
            #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","#
                + #""consumptionPercentage":25000,"refundPreference":"GRANT_PRORATED"}"#, for: id)
        let now = try latest(id)
        #expect(now.revocationType == .refundProrated && now.revocationPercentage == 75_000)
        #expect(now.refundRequest == .granted)
        #expect(try notificationTypes() == [.consumptionRequest, .refund])
    }

    @Test func grantFullAndDeclineDecideTheRequest() throws {
        let full = try bought()
        _ = try store.refunds.requestRefund(id: full, reason: nil)
        try consumption(
            #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","#
                + #""refundPreference":"GRANT_FULL"}"#, for: full)
        #expect(try latest(full).revocationType == .refundFull)
        let declined = try bought()
        _ = try store.refunds.requestRefund(id: declined, reason: nil)
        try consumption(
            #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","#
                + #""refundPreference":"DECLINE"}"#, for: declined)
        #expect(try latest(declined).revocationDate == nil)
        #expect(try latest(declined).refundRequest == .declined)
        #expect(try notificationTypes().suffix(2) == [.consumptionRequest, .refundDeclined])
    }

    @Test func withoutAnOpenRequestConsumptionInformationDecidesNothing() throws {
        let id = try bought()
        try consumption(
            #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","#
                + #""refundPreference":"GRANT_FULL"}"#, for: id)
        #expect(try latest(id).revocationDate == nil)
        #expect(try notificationTypes().isEmpty)
    }

    @Test func grantProratedWithoutAConsumptionPercentageIsABadRequest() throws {
        let id = try bought()
        _ = try store.refunds.requestRefund(id: id, reason: nil)
        #expect(throws: MockStoreError.self) {
            try consumption(
                #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","#
                    + #""refundPreference":"GRANT_PRORATED"}"#, for: id)
        }
        #expect(try latest(id).refundRequest == .requested)
    }

    @Test func controlPercentagesAreMilliunits() {
        #expect(ControlInvocation.milliPercent("50") == 50_000)
        #expect(ControlInvocation.milliPercent("33.333") == 33_333)
        #expect(ControlInvocation.milliPercent("0.5") == 500)
        #expect(ControlInvocation.milliPercent("100") == 100_000)
        for bad in ["0", "100.001", "33.3333", "-5", "abc", "", ".5", "5.", "1e2"] {
            #expect(ControlInvocation.milliPercent(bad) == nil, "\(bad)")
        }
    }
}
