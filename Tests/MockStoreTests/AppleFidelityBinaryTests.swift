import Foundation
import FoundationNetworking
import Signing
import StoreTestControls
import StoreWire
import Testing

@testable import MockStoreServer

/// Issue 15's "behaviour to match", through the real binary: each as Apple documents it.
@Suite struct AppleFidelityBinaryTests {
    static let consumable = "com.example.coins"
    static let nonConsumable = "com.example.pro"
    static let nonRenewing = "com.example.season"
    static let device = "5C4F0A2E-9D6B-4C1E-8F3A-2B7D9E1C4A60"

    let directory: TemporaryDirectory
    let token: ServerAPIToken
    var data: String { directory.file("data") }

    init() throws {
        directory = try TemporaryDirectory("mockstore-fidelity")
        token = ServerAPIToken.shared
    }

    /// A catalogue with one product of each one-time type (the non-consumable family shareable).
    func catalogue() throws -> String { try Self.writeCatalogue(in: directory) }

    /// The same catalogue written once for the process: the one path the tests on a shared store
    /// (``MockStoreHarness/withShared(catalogue:_:)``) name, so they share one store.
    static func sharedCatalogue() throws -> String { try sharedCatalogueFile.get() }

    nonisolated(unsafe) private static let sharedCatalogueDirectory = Result {
        try TemporaryDirectory("mockstore-fidelity")
    }
    private static let sharedCatalogueFile = Result { try writeCatalogue(in: try sharedCatalogueDirectory.get()) }

    private static func writeCatalogue(in directory: TemporaryDirectory) throws -> String {
        let products =
            "["
            + StoreKitFixtures.product(id: Self.consumable, type: "Consumable", price: "0.99") + ","
            + StoreKitFixtures.product(id: Self.nonConsumable, type: "NonConsumable", price: "4.99")
            .replacingOccurrences(of: "\"referenceName\"", with: "\"familyShareable\": true, \"referenceName\"")
            + "]"
        let nonRenewing = StoreKitFixtures.product(id: Self.nonRenewing, type: "NonRenewingSubscription", price: "2.99")
        var json = StoreKitFixtures.minimal(products: products, settings: #"{"_locale": "en_US"}"#)
        json = json.replacingOccurrences(
            of: "\"settings\"", with: "\"nonRenewingSubscriptions\": [\(nonRenewing)], \"settings\"")
        return try directory.write(json, to: "fidelity.storekit")
    }

    func start(_ extra: [String] = []) async throws -> MockStoreHarness {
        try await MockStoreHarness.start(
            dataDirectory: data, extraArguments: try token.option(in: directory) + extra, catalogue: try catalogue())
    }

    func api(_ store: MockStoreHarness, _ method: String, _ path: String, json: String? = nil) async throws
        -> MockStoreHarness.Response
    {
        try await store.request(method, path, body: json.map { Array($0.utf8) }, headers: try token.header())
    }

    func purchase(_ store: MockStoreHarness, _ product: String, device: String? = nil) async throws
        -> PurchaseResponseBody
    {
        let headers = device.map { ["X-Device-Verification-ID": $0] } ?? [:]
        return try await store.request(
            "POST", DeviceAPI.purchase.path(), body: Array(#"{"productId": "\#(product)"}"#.utf8), headers: headers
        ).decoded(PurchaseResponseBody.self)
    }

    func root(_ store: MockStoreHarness) async throws -> Certificate {
        try Certificate(derRepresentation: try await store.get(SandboxAPI.rootCertificate.path()).body)
    }

    func payload(_ jws: String?, root: Certificate) throws -> SignedTransactionPayload {
        try verifiedES256Payload(try #require(jws), as: SignedTransactionPayload.self, root: root)
    }

    func notifications(_ store: MockStoreHarness) async throws -> [TestNotificationRecord] {
        try await store.get(TestControls.notifications.path()).decoded(TestNotificationsBody.self).notifications
    }

    func history(_ store: MockStoreHarness, _ body: String, token paginationToken: String? = nil) async throws
        -> MockStoreHarness.Response
    {
        try await api(
            store, "POST", ServerAPI.notificationHistory.target(.init(paginationToken: paginationToken)), json: body)
    }

    var now: Int64 { Int64(Date().timeIntervalSince1970 * 1_000) }
    var lastHour: String { #""startDate": \#(now - 3_600_000), "endDate": \#(now + 60_000)"# }
}

// MARK: ONE_TIME_CHARGE, appTransactionId, AppTransaction

extension AppleFidelityBinaryTests {
    @Test func everyOneTimePurchaseIsAnnouncedByOneTimeCharge() async throws {
        let store = try await start()
        let root = try await root(store)
        var ids: [String] = []
        for product in [Self.consumable, Self.nonConsumable, Self.nonRenewing] {
            ids.append(try payload(try await purchase(store, product).signedTransaction, root: root).transactionId)
        }
        // An owned non-consumable is given back, not sold again: no second charge.
        #expect(try await purchase(store, Self.nonConsumable).result == .success)
        _ = try await store.testStore.setAskToBuy(true)
        #expect(try await purchase(store, Self.consumable).result == .pending)
        let waiting = try await #require(try store.testStore.transactions().last)
        #expect(try await notifications(store).count == 3, "a pending purchase is not charged")
        _ = try await store.testStore.approve(waiting.transactionId)
        ids.append(waiting.transactionId)
        let outside = try await store.testStore.buy(Self.consumable).transaction
            .transactionId
        ids.append(outside)

        let records = try await notifications(store)
        #expect(records.map(\.notificationType) == Array(repeating: .oneTimeCharge, count: 5))
        #expect(records.map(\.transactionId) == ids)
        for record in records {
            let notification = try verifiedES256Payload(record.signedPayload, as: NotificationPayload.self, root: root)
            #expect(notification.subtype == nil)
            let data = try #require(notification.data)
            #expect(data.environment == .sandbox && data.appAppleId == nil && data.bundleVersion == "1")
            #expect(try payload(data.signedTransactionInfo, root: root).transactionId == record.transactionId)
        }
        #expect(try await store.stop() == 0)
    }

    @Test func theAppTransactionIsSignedForTheDeviceAndTheServerAPI() async throws {
        let store = try await start()
        let root = try await root(store)
        let bought = try payload(
            try await purchase(store, Self.consumable, device: Self.device).signedTransaction, root: root)
        let appTransactionId = try #require(bought.appTransactionId)
        #expect(appTransactionId.count == 18 && appTransactionId.allSatisfy(\.isNumber))

        let device = try await store.request(
            "GET", DeviceAPI.appTransaction.path(), headers: ["X-Device-Verification-ID": Self.device])
        #expect(device.status == 200)
        let signed = try device.decoded(SignedAppTransactionBody.self).signedAppTransaction
        let app = try verifiedES256Payload(signed, as: AppTransactionPayload.self, root: root)
        #expect(app.appTransactionId == appTransactionId)
        #expect(app.receiptType == .sandbox && app.appAppleId == nil && app.bundleId == "ai.voicedebrief.app")
        #expect(app.applicationVersion == "1" && app.originalApplicationVersion == "1" && app.originalPlatform == .iOS)
        #expect(app.originalPurchaseDate <= app.receiptCreationDate && app.signedDate > 0)
        let nonce = try #require(app.deviceVerificationNonce.flatMap(UUID.init(uuidString:)))
        #expect(app.deviceVerificationNonce == nonce.uuidString.lowercased())
        #expect(app.deviceVerification == Self.expectedVerification(nonce: nonce))

        let info = try await api(
            store, "GET", ServerAPI.appTransactionInfo.path(.init(transactionId: bought.transactionId)))
        #expect(info.status == 200 && info.contentType == "application/json")
        let server = try verifiedES256Payload(
            info.decoded(AppTransactionInfoResponseBody.self).signedAppTransactionInfo, as: AppTransactionPayload.self,
            root: root)
        #expect(server.appTransactionId == appTransactionId && server.deviceVerification == nil)
        try expectError(
            try await api(store, "GET", ServerAPI.appTransactionInfo.path(.init(transactionId: "abc"))), status: 400,
            code: .invalidTransactionId)
        try expectError(
            try await api(store, "GET", ServerAPI.appTransactionInfo.path(.init(transactionId: "2000000000000999"))),
            status: 404,
            code: .transactionIdNotFound)
        #expect(try await store.stop() == 0)

        // The same customer after a restart and a reset: the same appTransactionId.
        let again = try await start()
        try await again.testStore.reset()
        let later = try payload(try await purchase(again, Self.consumable).signedTransaction, root: root)
        #expect(later.appTransactionId == appTransactionId)
        #expect(try await again.stop() == 0)
    }

    /// Apple's documented check, written out independently: base64(SHA-384(lowercased nonce + lowercased device id)).
    static func expectedVerification(nonce: UUID) -> String {
        Data(SHA384.hash(Array((nonce.uuidString.lowercased() + device.lowercased()).utf8))).base64EncodedString()
    }
}

// MARK: Signed data as Apple's

extension AppleFidelityBinaryTests {
    @Test func headersAreAlgAndX5cOnlyAndDeviceFieldsComeFromTheDeviceId() async throws {
        let receiver = try NotificationReceiver()
        let store = try await start(["--notify", receiver.url])
        let root = try await root(store)
        let bought = try await purchase(store, Self.consumable, device: Self.device)
        let signed = try #require(bought.signedTransaction)
        let transaction = try payload(signed, root: root)
        let nonce = try #require(transaction.deviceVerificationNonce.flatMap(UUID.init(uuidString:)))
        #expect(transaction.deviceVerification == Self.expectedVerification(nonce: nonce))

        let unfinished = try await store.request(
            "GET", DeviceAPI.unfinished.path(), headers: ["X-Device-Verification-ID": Self.device]
        ).decoded(SignedTransactionsBody.self).signedTransactions
        let listed = try payload(unfinished.first, root: root)
        #expect(listed.deviceVerificationNonce != transaction.deviceVerificationNonce, "a fresh nonce each time")
        let listedNonce = try #require(listed.deviceVerificationNonce.flatMap(UUID.init(uuidString:)))
        #expect(listed.deviceVerification == Self.expectedVerification(nonce: listedNonce))

        let info = try await api(
            store, "GET", ServerAPI.transactionInfo.path(.init(transactionId: transaction.transactionId))
        )
        .decoded(TransactionInfoResponseBody.self).signedTransactionInfo
        #expect(try payload(info, root: root).deviceVerification == nil, "the Server API has no device fields")
        try await eventually("the notification arrives") { receiver.bodies.count == 1 }
        let notification = try JSONDecoder().decode(SignedNotificationBody.self, from: Data(receiver.bodies[0]))
        for jws in [signed, unfinished[0], info, notification.signedPayload] {
            let header =
                try JSONSerialization.jsonObject(
                    with: Data(Base64URL.decode(String(jws.split(separator: ".")[0])) ?? [])) as? [String: Any]
            #expect(header.map { Set($0.keys) } == ["alg", "x5c"], "header of \(jws.prefix(20))…")
        }
        let bad = try await store.request(
            "GET", DeviceAPI.unfinished.path(), headers: ["X-Device-Verification-ID": "not-a-uuid"])
        try expectError(bad, status: 400, code: .generalBadRequest)
        #expect(try await store.stop() == 0)
    }
}

// MARK: Set App Account Token

extension AppleFidelityBinaryTests {
    @Test func setAppAccountTokenSetsItEverywhere() async throws {
        let store = try await start()
        let root = try await root(store)
        let id = try await store.testStore.buy(Self.consumable).transaction.transactionId
        let token = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
        let set = try await api(
            store, "PUT", ServerAPI.setAppAccountToken.path(.init(originalTransactionId: id)),
            json: #"{"appAccountToken": "\#(token)"}"#)
        #expect(set.status == 200)
        let info = try await api(store, "GET", ServerAPI.transactionInfo.path(.init(transactionId: id)))
            .decoded(TransactionInfoResponseBody.self)
        #expect(try payload(info.signedTransactionInfo, root: root).appAccountToken == token)
        let history = try await api(store, "GET", ServerAPI.history.target(.init(transactionId: id))).decoded(
            HistoryResponseBody.self)
        #expect(try payload(history.signedTransactions.first, root: root).appAccountToken == token)
        let unfinished = try await store.get(DeviceAPI.unfinished.path())
            .decoded(SignedTransactionsBody.self)
        #expect(try payload(unfinished.signedTransactions.first, root: root).appAccountToken == token)
        await #expect(
            try store.testStore.transactions()[0].appAccountToken == token)
        _ = try await store.testStore.refund(id)
        let refund = try #require(try await notifications(store).last)
        let refunded = try verifiedES256Payload(refund.signedPayload, as: NotificationPayload.self, root: root)
        #expect(try payload(refunded.data?.signedTransactionInfo, root: root).appAccountToken == token)

        try expectError(
            try await api(
                store, "PUT", ServerAPI.setAppAccountToken.path(.init(originalTransactionId: id)),
                json: #"{"appAccountToken": "nope"}"#),
            status: 400, code: .invalidAppAccountToken)
        try expectError(
            try await api(
                store, "PUT", ServerAPI.setAppAccountToken.path(.init(originalTransactionId: "abc")),
                json: #"{"appAccountToken": "\#(token)"}"#),
            status: 400, code: .invalidTransactionId)
        try expectError(
            try await api(
                store, "PUT", ServerAPI.setAppAccountToken.path(.init(originalTransactionId: "2000000000000999")),
                json: #"{"appAccountToken": "\#(token)"}"#),
            status: 404, code: .originalTransactionIdNotFound)
        try expectError(
            try await api(store, "PUT", ServerAPI.setAppAccountToken.path(.init(originalTransactionId: id)), json: "{"),
            status: 400, code: .generalBadRequest)
        #expect(try await store.stop() == 0)
    }
}
