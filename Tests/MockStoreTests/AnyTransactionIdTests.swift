import Foundation
import Signing
import StoreTestControls
import StoreWire
import Testing

@testable import MockStoreServer
@testable import StoreKitCatalogue

/// Apple's documented behaviour (issue 36, item 3), in process: the history endpoints take any transaction id of
/// the customer, an `appTransactionId` among them; Set App Account Token reaches later renewals and answers Apple's
/// errors; the consumption records are the named customer's.
@Suite struct AnyTransactionIdTests {
    static let secret = Array("any-transaction-id-secret".utf8)
    static let weekly = "com.example.news.weekly"

    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    func store(_ catalogue: String = Repository.catalogue) throws -> MockStore {
        MockStore(
            configuration: .init(
                catalogue: try StoreKitConfiguration.load(contentsOf: catalogue), bundleId: "ai.voicedebrief.app",
                signer: JWSTransactionSigner.hs256(secret: Self.secret), clock: ManualClock(fixedDate)),
            database: try TransactionStore(path: directory.file("store-\(UUID().uuidString).sqlite")))
    }

    func payload(_ jws: String?) throws -> SignedTransactionPayload {
        let parsed = try CompactJWS.parse(jws ?? "")
        return try JSONDecoder().decode(SignedTransactionPayload.self, from: Data(parsed.payload))
    }

    func renewalInfo(_ jws: String) throws -> RenewalInfoPayload {
        try JSONDecoder().decode(RenewalInfoPayload.self, from: Data(try CompactJWS.parse(jws).payload))
    }

    /// A purchase of `product` for the customer the scope names; its signed payload.
    func buy(_ store: MockStore, _ product: String = "ai.voicedebrief.app.credit.500") throws
        -> SignedTransactionPayload
    {
        try payload(store.purchases.purchase(PurchaseRequestBody(productId: product)).signedTransaction)
    }

    /// The error `body` threw.
    func refusal(_ body: () throws -> Void) -> MockStoreError? {
        do {
            try body()
            return nil
        } catch {
            return error as? MockStoreError
        }
    }
}

extension AnyTransactionIdTests {
    @Test func historyTakesTheAppTransactionIdAndAnswersForThatCustomerOnly() throws {
        let store = try store()
        let alice = try store.customers.addCustomer(TestCustomerRequest(name: "alice"))
        _ = try store.customers.addCustomer(TestCustomerRequest(name: "bob"))
        let hers = try CustomerScope.$name.withValue("alice") { try buy(store) }
        _ = try CustomerScope.$name.withValue("bob") { try buy(store) }
        #expect(hers.appTransactionId == alice.appTransactionId)

        let byApp = try store.serverAPI.history(.init(transactionId: alice.appTransactionId))
        #expect(try byApp.signedTransactions.map { try payload($0).transactionId } == [hers.transactionId])
        let byTransaction = try store.serverAPI.history(.init(transactionId: hers.transactionId))
        #expect(byApp.signedTransactions.count == byTransaction.signedTransactions.count)

        _ = try CustomerScope.$name.withValue("alice") { try store.refunds.refund(id: hers.transactionId, reason: nil) }
        let refunds = try store.serverAPI.refundHistory(id: alice.appTransactionId, revision: nil)
        #expect(try refunds.signedTransactions.map { try payload($0).transactionId } == [hers.transactionId])
        #expect(
            refusal { _ = try store.serverAPI.history(.init(transactionId: "2000000000999999")) }?.code
                == .transactionIdNotFound)
    }

    @Test func setAppAccountTokenAnswersApplesErrors() throws {
        let store = try store()
        let bought = try buy(store)
        let token = UpdateAppAccountTokenRequestBody(appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        let app = try #require(bought.appTransactionId)
        let appError = refusal { try store.serverAPI.setAppAccountToken(originalTransactionId: app, token) }
        #expect(appError?.status == 400 && appError?.code == .appTransactionIdNotSupported)
        let unknown = refusal {
            try store.serverAPI.setAppAccountToken(originalTransactionId: "2000000000999999", token)
        }
        #expect(unknown?.status == 404 && unknown?.code == .originalTransactionIdNotFound)
        #expect(
            refusal { try store.serverAPI.setAppAccountToken(originalTransactionId: bought.transactionId, token) }
                == nil)
    }

    @Test func aTokenSetOnASubscriptionReachesItsNextRenewal() throws {
        let store = try store(Repository.subscriptionCatalogue)
        let subscribed = try buy(store, Self.weekly)
        #expect(subscribed.appAccountToken == nil)
        let token = "0b2e9f4c-1d3a-4e5b-8c7d-6f5e4d3c2b1a"
        try store.serverAPI.setAppAccountToken(
            originalTransactionId: subscribed.transactionId, UpdateAppAccountTokenRequestBody(appAccountToken: token))
        let renewed = try store.subscriptions.forceRenewal(Self.weekly)
        let renewal = try #require(renewed.transactionId)
        #expect(renewal != subscribed.transactionId)
        let info = try store.serverAPI.transactionInfo(id: renewal)
        #expect(try payload(info.signedTransactionInfo).appAccountToken == token)
        let statuses = try store.subscriptions.allSubscriptionStatuses(
            transactionId: subscribed.transactionId, statuses: [])
        let last = try #require(statuses.data.first?.lastTransactions.first)
        #expect(try renewalInfo(last.signedRenewalInfo).appAccountToken == token)
    }

    @Test func aTokenSetAfterARenewalIsTheCurrentRenewalsAndNotThePastTransactions() throws {
        let store = try store(Repository.subscriptionCatalogue)
        let subscribed = try buy(store, Self.weekly)
        let renewed = try #require(try store.subscriptions.forceRenewal(Self.weekly).transactionId)
        let token = "5d1c0a7e-2b3f-4c4d-9e5f-6a7b8c9d0e1f"
        try store.serverAPI.setAppAccountToken(
            originalTransactionId: subscribed.transactionId, UpdateAppAccountTokenRequestBody(appAccountToken: token))
        let past = try store.serverAPI.transactionInfo(id: subscribed.transactionId)
        #expect(try payload(past.signedTransactionInfo).appAccountToken == nil)
        let current = try store.serverAPI.transactionInfo(id: renewed)
        #expect(try payload(current.signedTransactionInfo).appAccountToken == token)
        let next = try #require(try store.subscriptions.forceRenewal(Self.weekly).transactionId)
        let later = try store.serverAPI.transactionInfo(id: next)
        #expect(try payload(later.signedTransactionInfo).appAccountToken == token)
    }

    @Test func consumptionRecordsAreTheNamedCustomers() throws {
        let store = try store()
        _ = try store.customers.addCustomer(TestCustomerRequest(name: "alice"))
        let hers = try CustomerScope.$name.withValue("alice") { try buy(store) }
        let mine = try buy(store)
        let body = Array(#"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED"}"#.utf8)
        try store.serverAPI.sendConsumption(id: hers.transactionId, version: .v2, body: body)
        try store.serverAPI.sendConsumption(id: mine.transactionId, version: .v2, body: body)
        let alices = try CustomerScope.$name.withValue("alice") { try store.controls.consumptionRecords() }
        #expect(alices.consumption.map(\.transactionId) == [hers.transactionId])
        let everyones = try store.controls.consumptionRecords()
        #expect(everyones.consumption.map(\.transactionId) == [hers.transactionId, mine.transactionId])
    }
}
