import Foundation
import MockStoreTesting
import Signing
import StoreTestControls
import StoreWire
import Testing

/// Many customers through the real `mockstore` binary (issue 27): each customer's purchases, subscriptions,
/// eligibility, refunds and storefront are theirs alone, on the device API (`X-Mock-Customer`), the test controls
/// (`--customer`) and the Server API (the customer of the transaction id given).
@Suite struct CustomerBinaryTests {
    static let proMonthly = SubscriptionBinaryTests.proMonthly
    static let weekly = SubscriptionBinaryTests.weekly
    static let proGroup = SubscriptionBinaryTests.proGroup
    static let newsGroup = "3E0E1CE5"

    let directory: TemporaryDirectory
    let token: ServerAPIToken

    init() throws {
        directory = try TemporaryDirectory("mockstore-customers")
        token = ServerAPIToken.shared
    }

    func start() async throws -> MockStoreHarness {
        try await MockStoreHarness.start(
            dataDirectory: directory.file("data"), extraArguments: try token.option(in: directory),
            catalogue: SubscriptionBinaryTests.catalogue)
    }

    func root(_ store: MockStoreHarness) async throws -> Certificate {
        try Certificate(derRepresentation: try await store.get(SandboxAPI.rootCertificate.path()).body)
    }

    /// A device-API request as `customer`'s device (no header for `nil`).
    func device(
        _ store: MockStoreHarness, _ method: String, _ path: String, json: String? = nil, as customer: String?
    ) async throws -> MockStoreHarness.Response {
        try await store.request(
            method, path, body: json.map { Array($0.utf8) },
            headers: customer.map { [MockCustomerHeader.name: $0] } ?? [:])
    }

    /// `customer` buys `product` on their device: the signed transaction, verified.
    func buy(_ store: MockStoreHarness, _ product: String, as customer: String?, root: Certificate) async throws
        -> SignedTransactionPayload
    {
        let response = try await device(
            store, "POST", DeviceAPI.purchase.path(), json: #"{"productId": "\#(product)"}"#, as: customer)
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        let body = try response.decoded(PurchaseResponseBody.self)
        return try verifiedES256Payload(
            try #require(body.signedTransaction), as: SignedTransactionPayload.self, root: root)
    }

    /// The transactions a list of JWS carries, verified.
    func payloads(_ signed: [String], root: Certificate) throws -> [SignedTransactionPayload] {
        try signed.map { try verifiedES256Payload($0, as: SignedTransactionPayload.self, root: root) }
    }

    func server(_ store: MockStoreHarness, _ path: String) async throws -> MockStoreHarness.Response {
        try await store.request("GET", path, headers: try token.header())
    }

    /// The groups Get All Subscription Statuses answers for `transactionId`.
    func statusGroups(_ store: MockStoreHarness, _ transactionId: String) async throws -> [String] {
        let response = try await server(
            store, ServerAPI.subscriptionStatuses.target(.init(transactionId: transactionId)))
        #expect(response.status == 200)
        return try response.decoded(StatusResponseBody.self).data.map(\.subscriptionGroupIdentifier)
    }

    /// The product ids of the transaction history for `transactionId`.
    func historyProducts(_ store: MockStoreHarness, _ transactionId: String, root: Certificate) async throws
        -> [String]
    {
        let response = try await server(store, ServerAPI.history.target(.init(transactionId: transactionId)))
        #expect(response.status == 200)
        let body = try response.decoded(HistoryResponseBody.self)
        return try payloads(body.signedTransactions, root: root).map(\.productId)
    }
}

extension CustomerBinaryTests {
    @Test func twoCustomersHistoriesSubscriptionsAndStatusesStayApart() async throws {
        let store = try await start()
        let root = try await root(store)
        let added = try await store.testStore.addCustomer("alice")
        _ = try await store.testStore.addCustomer("bob@example.com")
        let alice = try await buy(store, Self.proMonthly, as: "alice", root: root)
        let bob = try await buy(store, Self.weekly, as: "bob@example.com", root: root)
        #expect(alice.appTransactionId == added.appTransactionId)
        #expect(alice.appTransactionId != bob.appTransactionId)

        // The device API: each customer's own entitlements and subscription status, and nothing for the default one.
        for (customer, product) in [("alice", Self.proMonthly), ("bob@example.com", Self.weekly)] {
            let body = try await device(store, "GET", DeviceAPI.currentEntitlements.path(), as: customer)
                .decoded(SignedTransactionsBody.self)
            #expect(try payloads(body.signedTransactions, root: root).map(\.productId) == [product])
        }
        let bobsPro = try await device(
            store, "GET", DeviceAPI.subscriptionStatus.path(.init(groupId: Self.proGroup)), as: "bob@example.com")
        #expect(try bobsPro.decoded(SubscriptionStatusesBody.self).statuses.isEmpty)
        let alicesPro = try await device(
            store, "GET", DeviceAPI.subscriptionStatus.path(.init(groupId: Self.proGroup)), as: "alice")
        #expect(try alicesPro.decoded(SubscriptionStatusesBody.self).statuses.count == 1)
        let nobody = try await device(store, "GET", DeviceAPI.currentEntitlements.path(), as: nil)
        #expect(try nobody.decoded(SignedTransactionsBody.self).signedTransactions.isEmpty)

        // The Server API answers for the customer of the transaction id given, and by their app transaction id.
        #expect(try await statusGroups(store, alice.transactionId) == [Self.proGroup])
        #expect(try await statusGroups(store, bob.transactionId) == [Self.newsGroup])
        #expect(try await statusGroups(store, try #require(bob.appTransactionId)) == [Self.newsGroup])
        #expect(try await historyProducts(store, alice.transactionId, root: root) == [Self.proMonthly])
        #expect(try await historyProducts(store, bob.transactionId, root: root) == [Self.weekly])

        // The clock runs for every customer: both renew, each in their own history.
        _ = try await store.testStore.advanceClock(by: .months(1))
        let alicesHistory = try await historyProducts(store, alice.transactionId, root: root)
        #expect(alicesHistory.count >= 2 && alicesHistory.allSatisfy { $0 == Self.proMonthly })
        let bobsHistory = try await historyProducts(store, bob.transactionId, root: root)
        #expect(bobsHistory.count >= 4 && bobsHistory.allSatisfy { $0 == Self.weekly })
        let renewed = try await store.testStore.acting(as: "alice") { try await store.testStore.transactions() }
        #expect(Set(renewed.map(\.originalTransactionId)) == [alice.transactionId])
    }

    @Test func aRefundIsOnlyInItsCustomersRefundHistoryAndItsNotificationUsesApplesFieldsOnly() async throws {
        let store = try await start()
        let root = try await root(store)
        _ = try await store.testStore.addCustomer("alice")
        _ = try await store.testStore.addCustomer("bob")
        let token = UUID().uuidString.lowercased()
        let bought = try await store.testStore.acting(as: "alice") {
            try await store.testStore.buy("com.example.coins", appAccountToken: token)
        }
        let bobs = try await buy(store, "com.example.coins", as: "bob", root: root)
        let id = bought.transaction.transactionId

        // A control naming another customer does not reach alice's transaction.
        let wrong = try await store.request(
            "POST", TestControls.refund.path(.init(transactionId: id)), body: Array("{}".utf8),
            headers: [MockCustomerHeader.name: "bob"])
        try expectError(wrong, status: 404, code: .transactionIdNotFound)
        _ = try await store.testStore.acting(as: "alice") { try await store.testStore.refund(id) }

        let alices = try await server(store, ServerAPI.refundHistory.target(.init(transactionId: id))).decoded(
            RefundHistoryResponseBody.self)
        #expect(try payloads(alices.signedTransactions, root: root).map(\.transactionId) == [id])
        let bobsRefunds = try await server(
            store, ServerAPI.refundHistory.target(.init(transactionId: bobs.transactionId))
        )
        .decoded(RefundHistoryResponseBody.self)
        #expect(bobsRefunds.signedTransactions.isEmpty)

        // The REFUND notification says whose it is through appAccountToken and originalTransactionId only.
        let records = try await store.testStore.notifications()
        let refund = try #require(
            try records.map { try verifiedES256Payload($0.signedPayload, as: NotificationPayload.self, root: root) }
                .first { $0.notificationType == .refund })
        let signed = try #require(refund.data?.signedTransactionInfo)
        let transaction = try verifiedES256Payload(signed, as: SignedTransactionPayload.self, root: root)
        #expect(transaction.appAccountToken == token && transaction.originalTransactionId == id)
        let claims = try #require(
            try JSONSerialization.jsonObject(with: Data(try CompactJWS.parse(signed).payload)) as? [String: Any])
        #expect(!claims.keys.contains { $0.lowercased().contains("customer") })
        #expect(!String(decoding: try CompactJWS.parse(signed).payload, as: UTF8.self).contains("alice"))
    }

    /// On the shared store, with two customers of the test's own.
    @Test func anIntroductoryOfferUsedByOneCustomerIsStillOfferedToTheOther() async throws {
        try await MockStoreHarness.withShared(catalogue: SubscriptionBinaryTests.catalogue) { store in
            let root = try await root(store)
            let (alice, bob) = try Self.twoCustomers(of: store)
            _ = try await store.testStore.addCustomer(alice)
            _ = try await store.testStore.addCustomer(bob)
            let eligibility = DeviceAPI.introOfferEligibility.path(.init(groupId: Self.proGroup))
            let first = try await buy(store, Self.proMonthly, as: alice, root: root)
            #expect(first.offerType == .introductoryOffer, "alice's first subscription takes the introductory offer")
            let alices = try await device(store, "GET", eligibility, as: alice).decoded(IntroOfferEligibilityBody.self)
            let bobs = try await device(store, "GET", eligibility, as: bob).decoded(IntroOfferEligibilityBody.self)
            #expect(!alices.isEligibleForIntroOffer && bobs.isEligibleForIntroOffer)
            let bought = try await buy(store, Self.proMonthly, as: bob, root: root)
            #expect(bought.offerType == .introductoryOffer, "bob's first subscription takes it too")
            #expect(bought.originalTransactionId != first.originalTransactionId)
        }
    }

    /// Two names no other test uses, for a test on the shared store: its own customer's, suffixed.
    static func twoCustomers(of store: MockStoreHarness) throws -> (String, String) {
        let own = try #require(store.customer)
        return ("alice-" + own, "bob-" + own)
    }
}

extension CustomerBinaryTests {
    @Test func anAskToBuyRequestIsItsCustomersAloneUntilApprovedAndThenInTheirUpdatesOnly() async throws {
        let store = try await start()
        let root = try await root(store)
        _ = try await store.testStore.addCustomer("kid")
        _ = try await store.testStore.addCustomer("other")
        let cursor = try await device(store, "GET", DeviceAPI.updates.path(), as: "other")
            .decoded(TransactionUpdatesBody.self).cursor
        _ = try await store.testStore.setAskToBuy(true)
        let asked = try await device(
            store, "POST", DeviceAPI.purchase.path(), json: #"{"productId": "com.example.coins"}"#, as: "kid"
        ).decoded(PurchaseResponseBody.self)
        #expect(asked.result == .pending)
        let id = try #require(asked.transactionId)

        // Another customer's device cannot see it, nor a control naming them approve it.
        let seen = try await device(store, "GET", DeviceAPI.purchaseStatus.path(.init(transactionId: id)), as: "other")
        try expectError(seen, status: 404, code: StoreErrorCode.transactionIdNotFound)
        let theirs = try await device(store, "GET", DeviceAPI.purchaseStatus.path(.init(transactionId: id)), as: "kid")
        #expect(try theirs.decoded(PurchaseStatusBody.self).status == .pending)
        await #expect(
            try store.testStore.acting(as: "other") { try await refusal { try await store.testStore.approve(id) } }
                != nil)
        _ = try await store.testStore.approve(id)

        let kids = try await device(store, "GET", DeviceAPI.updates.target(.init(after: cursor)), as: "kid")
        #expect(
            try payloads(kids.decoded(TransactionUpdatesBody.self).signedTransactions, root: root)
                .map(\.transactionId) == [id])
        let others = try await device(store, "GET", DeviceAPI.updates.target(.init(after: cursor)), as: "other")
        #expect(try others.decoded(TransactionUpdatesBody.self).signedTransactions.isEmpty)
    }

    /// On the shared store: two customers of the test's own, and the test's own customer acting for nobody else.
    @Test func aSubscriptionControlNamingAProductActsForTheCustomerItNames() async throws {
        try await MockStoreHarness.withShared(catalogue: SubscriptionBinaryTests.catalogue) { store in
            let root = try await root(store)
            let (alice, bob) = try Self.twoCustomers(of: store)
            _ = try await store.testStore.addCustomer(alice)
            _ = try await store.testStore.addCustomer(bob)
            _ = try await buy(store, Self.proMonthly, as: alice, root: root)
            _ = try await buy(store, Self.proMonthly, as: bob, root: root)
            _ = try await store.testStore.acting(as: bob) {
                try await store.testStore.setAutoRenew(Self.proMonthly, false)
            }
            let alices = try await store.testStore.acting(as: alice) { try await store.testStore.subscriptions() }
            let bobs = try await store.testStore.acting(as: bob) { try await store.testStore.subscriptions() }
            #expect(
                alices.map(\.autoRenewStatus) == [.on] && bobs.map(\.autoRenewStatus) == [.off])
            await #expect(try store.testStore.subscriptions().isEmpty)
            let nobodys = try await refusal { try await store.testStore.renew(Self.proMonthly) }
            #expect(nobodys != nil, "the test's own customer has no subscription")
        }
    }
}

extension CustomerBinaryTests {
    @Test func theTestLibraryAddsCustomersAndActsForOne() async throws {
        var options = TestStore.Options()
        try options.run(.inProcess)
        options.catalogue = SubscriptionBinaryTests.catalogue
        let store = try await TestStore.start(options)
        let alice = try await store.addCustomer("alice", storefront: "GBR")
        #expect(try await store.customers().map(\.name) == [MockCustomerHeader.defaultCustomer, "alice"])
        let bought = try await store.acting(as: "alice") { try await store.buy("com.example.coins") }
        #expect(
            try await store.acting(as: "alice") { try await store.transactions() }.map(\.transactionId)
                == [bought.transaction.transactionId])
        #expect(bought.transaction.storefront == alice.storefront)
        #expect(try await store.transactions().isEmpty, "the default customer's list")
        try await store.removeCustomer("alice")
        await #expect(throws: TestStoreError.self) {
            try await store.acting(as: "alice") { try await store.settings() }
        }
        #expect(await store.stop() == 0)
    }
}
