import Foundation
import FoundationNetworking
import MockStoreTesting
import Signing
import StoreTestControls
import StoreWire
import Testing

/// The App Store Server API subset, through the real binary, with bearer tokens made as Apple's libraries make them.
@Suite struct ServerAPIBinaryTests {
    static let credit500 = "ai.voicedebrief.app.credit.500"

    let directory: TemporaryDirectory
    let token: ServerAPIToken
    var data: String { directory.file("data") }

    init() throws {
        directory = try TemporaryDirectory("mockstore-server-api")
        token = ServerAPIToken.shared
    }

    func start(_ extra: [String] = [], catalogue: String = Repository.catalogue) async throws -> MockStoreHarness {
        try await MockStoreHarness.start(
            dataDirectory: data, extraArguments: try token.option(in: directory) + extra, catalogue: catalogue)
    }

    func api(
        _ store: MockStoreHarness, _ method: String, _ path: String, json: String? = nil
    ) async throws -> MockStoreHarness.Response {
        try await store.request(method, path, body: json.map { Array($0.utf8) }, headers: try token.header())
    }

    /// An outside purchase, over HTTP (the `buy` control itself is tested in SandboxControlBinaryTests).
    func buy(_ store: MockStoreHarness, _ product: String = credit500) async throws -> String {
        let response = try await store.post(TestControls.buy.path(), json: #"{"productId": "\#(product)"}"#)
        #expect(response.status == 200)
        return try response.decoded(TestTransactionBody.self).transaction.transactionId
    }

    func root(_ store: MockStoreHarness) async throws -> Certificate {
        try Certificate(derRepresentation: try await store.get(SandboxAPI.rootCertificate.path()).body)
    }

    func transactions(_ signed: [String], root: Certificate) throws -> [SignedTransactionPayload] {
        try signed.map { try verifiedES256Payload($0, as: SignedTransactionPayload.self, root: root) }
    }
}

// MARK: Authentication

extension ServerAPIBinaryTests {
    @Test func badBearerTokensGet401WithoutABody() async throws {
        let store = try await start()
        let id = try await buy(store)
        let path = ServerAPI.transactionInfo.path(.init(transactionId: id))
        let stranger = try P256PrivateKey.generate()
        let bad: [(String, String?)] = [
            ("no header", nil),
            ("not bearer", "Basic abc"),
            ("garbage", "Bearer not.a.jwt"),
            ("other key", "Bearer " + (try token.make(signedBy: stranger))),
            ("unknown kid", "Bearer " + (try token.make(kid: "OTHERKEY"))),
            ("no kid", "Bearer " + (try token.make(kid: .some(nil)))),
            ("HS256", "Bearer " + (try token.make(alg: "HS256"))),
            ("wrong aud", "Bearer " + (try token.make(aud: "appstoreconnect-v2"))),
            ("no aud", "Bearer " + (try token.make(aud: nil))),
            ("wrong bid", "Bearer " + (try token.make(bid: "com.example.other"))),
            ("no bid", "Bearer " + (try token.make(bid: nil))),
            ("no iss", "Bearer " + (try token.make(iss: nil))),
            ("expired", "Bearer " + (try token.make(expiresIn: -10))),
            ("no exp", "Bearer " + (try token.make(expiresIn: nil))),
            ("exp two hours away", "Bearer " + (try token.make(expiresIn: 7_200))),
            ("exp two hours after iat", "Bearer " + (try token.make(expiresIn: 3_000, issuedAgo: 4_300))),
        ]
        for (name, header) in bad {
            let response = try await store.request("GET", path, headers: header.map { ["Authorization": $0] } ?? [:])
            #expect(response.status == 401, "\(name)")
            #expect(response.body.isEmpty, "\(name): no body")
        }
        let withIat = try await store.request(
            "GET", path, headers: ["Authorization": "Bearer " + (try token.make(issuedAgo: 10))])
        #expect(withIat.status == 200, "iat is allowed, never required")
        #expect(try await api(store, "GET", path).status == 200)
        #expect(store.stderr.contains("bearer tokens checked with the keys \(token.keyId)"))
        #expect(try await store.stop() == 0)
    }

    @Test func withoutAPIKeysAnyWellFormedTokenIsAcceptedAndTheStoreSaysSo() async throws {
        let store = try await MockStoreHarness.start(dataDirectory: data)
        let id = try await buy(store)
        let stranger = try ServerAPIToken(keyId: "ANYKEY")
        let accepted = try await store.request(
            "GET", ServerAPI.transactionInfo.path(.init(transactionId: id)), headers: try stranger.header())
        #expect(accepted.status == 200)
        let wrongBundle = try await store.request(
            "GET", ServerAPI.transactionInfo.path(.init(transactionId: id)),
            headers: ["Authorization": "Bearer " + (try stranger.make(bid: "com.example.other"))])
        #expect(wrongBundle.status == 401, "claims are still checked")
        #expect(store.stderr.contains("no --api-key given: any well-formed ES256 bearer token is accepted"))
        #expect(try await store.stop() == 0)
    }

    @Test func unreadableAPIKeyStopsTheStart() async throws {
        let junk = try directory.write("not a key", to: "junk.pem")
        let outcome = try await MockStoreHarness.startInProcess(
            ["--catalogue", Repository.catalogue, "--data", data, "--api-key", "K1=\(junk)"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("--api-key K1: \(junk) holds no P-256 public key"))
        let usage = try await MockStoreHarness.startInProcess(["--api-key", "nokey"])
        #expect(usage.status == 64)
    }
}

// MARK: Endpoints

extension ServerAPIBinaryTests {
    @Test func getTransactionInfoServesFinishedRefundedAndRefusesPending() async throws {
        let store = try await start()
        let root = try await root(store)
        let id = try await buy(store)
        #expect(try await store.post(DeviceAPI.finish.path(.init(transactionId: id)), json: "{}").status == 200)
        let info = try await api(store, "GET", ServerAPI.transactionInfo.path(.init(transactionId: id)))
        #expect(info.status == 200)
        #expect(info.contentType == "application/json")
        let payload = try transactions(
            [try info.decoded(TransactionInfoResponseBody.self).signedTransactionInfo], root: root)[0]
        #expect(payload.transactionId == id)
        #expect(payload.environment == .sandbox)
        try await store.testStore.refund(id)
        let refunded = try transactions(
            [
                try await api(store, "GET", ServerAPI.transactionInfo.path(.init(transactionId: id))).decoded(
                    TransactionInfoResponseBody.self
                )
                .signedTransactionInfo
            ], root: root)[0]
        #expect(refunded.revocationDate != nil)

        _ = try await store.testStore.setAskToBuy(true)
        _ = try await store.post(DeviceAPI.purchase.path(), json: #"{"productId": "\#(Self.credit500)"}"#)
        let pending = try await #require(try store.testStore.transactions().last)
        try expectError(
            try await api(store, "GET", ServerAPI.transactionInfo.path(.init(transactionId: pending.transactionId))),
            status: 404,
            code: .transactionIdNotFound)
        try expectError(
            try await api(store, "GET", ServerAPI.transactionInfo.path(.init(transactionId: "2000000000000999"))),
            status: 404,
            code: .transactionIdNotFound)
        try expectError(
            try await api(store, "GET", ServerAPI.transactionInfo.path(.init(transactionId: "abc"))), status: 400,
            code: .invalidTransactionId
        )
        #expect(try await store.stop() == 0)
    }

    @Test func transactionHistoryPagesFiltersAndSorts() async throws {
        // Two products, to filter by one of them.
        try await MockStoreHarness.withShared(catalogue: Repository.twoPackCatalogue) { store in
            let root = try await root(store)
            var ids: [String] = []
            for index in 0..<23 {
                ids.append(try await buy(store, index == 22 ? "ai.voicedebrief.app.credit.1000" : Self.credit500))
            }
            let first = try await api(store, "GET", ServerAPI.history.target(.init(transactionId: ids[0])))
            #expect(first.status == 200)
            let page1 = try first.decoded(HistoryResponseBody.self)
            #expect(page1.hasMore)
            #expect(page1.bundleId == "ai.voicedebrief.app")
            #expect(page1.appAppleId == nil, "Apple leaves appAppleId out in the sandbox (issue 15)")
            #expect(page1.environment == .sandbox)
            #expect(try transactions(page1.signedTransactions, root: root).map(\.transactionId) == Array(ids[0..<20]))
            let page2 = try await api(
                store, "GET", ServerAPI.history.target(.init(transactionId: ids[5], revision: page1.revision))
            )
            .decoded(HistoryResponseBody.self)
            #expect(!page2.hasMore)
            #expect(try transactions(page2.signedTransactions, root: root).map(\.transactionId) == Array(ids[20...]))
            let nothingNew = try await api(
                store, "GET", ServerAPI.history.target(.init(transactionId: ids[0], revision: page2.revision))
            )
            .decoded(HistoryResponseBody.self)
            #expect(nothingNew.signedTransactions.isEmpty && !nothingNew.hasMore)

            try await store.testStore.refund(ids[3])
            let changed = try await api(
                store, "GET", ServerAPI.history.target(.init(transactionId: ids[0], revision: page2.revision))
            )
            .decoded(HistoryResponseBody.self)
            #expect(
                try transactions(changed.signedTransactions, root: root).map(\.transactionId) == [ids[3]],
                "modified since")

            let descending = try await api(
                store, "GET", ServerAPI.history.target(.init(transactionId: ids[0], sort: .descending))
            )
            .decoded(HistoryResponseBody.self)
            #expect(try transactions(descending.signedTransactions, root: root).first?.transactionId == ids[3])
            let revoked = try await api(
                store, "GET", ServerAPI.history.target(.init(transactionId: ids[0], revoked: "true"))
            )
            .decoded(HistoryResponseBody.self)
            #expect(try transactions(revoked.signedTransactions, root: root).map(\.transactionId) == [ids[3]])
            let notRevoked = try await api(
                store, "GET", ServerAPI.history.target(.init(transactionId: ids[0], revoked: "False"))
            )
            .decoded(HistoryResponseBody.self)
            #expect(notRevoked.signedTransactions.count == 20 && notRevoked.hasMore)
            let byProduct = try await api(
                store, "GET",
                ServerAPI.history.target(.init(transactionId: ids[0], productId: ["ai.voicedebrief.app.credit.1000"]))
            ).decoded(HistoryResponseBody.self)
            #expect(try transactions(byProduct.signedTransactions, root: root).map(\.transactionId) == [ids[22]])
            let nonConsumables = try await api(
                store, "GET",
                ServerAPI.history.target(.init(transactionId: ids[0], productType: [.nonConsumable]))
            )
            .decoded(HistoryResponseBody.self)
            #expect(nonConsumables.signedTransactions.isEmpty)
            let consumables = try await api(
                store, "GET",
                ServerAPI.history.target(.init(transactionId: ids[0], productType: [.consumable, .nonConsumable]))
            )
            .decoded(HistoryResponseBody.self)
            #expect(consumables.signedTransactions.count == 20)
            let v1 = try await api(store, "GET", ServerAPI.historyV1.target(.init(transactionId: ids[0])))
            #expect(v1.status == 200)

            try expectError(
                try await api(
                    store, "GET",
                    ServerAPI.history.target(.init(transactionId: ids[0], productType: [.unrecognized("GIFT")]))),
                status: 400,
                code: .invalidProductType)
            try expectError(
                try await api(
                    store, "GET", ServerAPI.history.target(.init(transactionId: ids[0], sort: .unrecognized("UP")))),
                status: 400,
                code: .invalidSort)
            try expectError(
                try await api(
                    store, "GET", ServerAPI.history.target(.init(transactionId: ids[0], revision: "nonsense"))),
                status: 400,
                code: .invalidRequestRevision)
            try expectError(
                try await api(
                    store, "GET", ServerAPI.history.target(.init(transactionId: ids[0], revoked: "maybe"))),
                status: 400,
                code: .invalidRevoked
            )
            try expectError(
                try await api(
                    store, "GET", ServerAPI.history.target(.init(transactionId: ids[0], startDate: "x"))),
                status: 400,
                code: .invalidStartDate)
            try expectError(
                try await api(
                    store, "GET", ServerAPI.history.target(.init(transactionId: ids[0], endDate: "-5"))),
                status: 400,
                code: .invalidEndDate)
            try expectError(
                try await api(store, "GET", ServerAPI.history.target(.init(transactionId: "2000000099999999"))),
                status: 404,
                code: .transactionIdNotFound)
            try expectError(
                try await api(store, "GET", ServerAPI.history.target(.init(transactionId: "x1"))), status: 400,
                code: .invalidTransactionId)
        }
    }

    @Test func refundHistoryListsRefundsOldestFirst() async throws {
        let store = try await start()
        let root = try await root(store)
        let ids = [try await buy(store), try await buy(store), try await buy(store)]
        let empty = try await api(store, "GET", ServerAPI.refundHistory.target(.init(transactionId: ids[0])))
        #expect(empty.status == 200)
        #expect(try empty.decoded(RefundHistoryResponseBody.self).signedTransactions.isEmpty)
        try await store.testStore.refund(ids[2])
        try await store.testStore.advanceClock(by: .minutes(1))
        try await store.testStore.refund(ids[0])
        let history = try await api(store, "GET", ServerAPI.refundHistory.target(.init(transactionId: ids[1])))
            .decoded(RefundHistoryResponseBody.self)
        let refunded = try transactions(history.signedTransactions, root: root)
        #expect(refunded.map(\.transactionId) == [ids[2], ids[0]])
        #expect(refunded.allSatisfy { $0.revocationDate != nil })
        #expect(!history.hasMore)
        let next = try await api(
            store, "GET", ServerAPI.refundHistory.target(.init(transactionId: ids[1], revision: history.revision))
        )
        .decoded(RefundHistoryResponseBody.self)
        #expect(next.signedTransactions.isEmpty)
        try expectError(
            try await api(store, "GET", ServerAPI.refundHistory.target(.init(transactionId: ids[1], revision: "zzz"))),
            status: 400,
            code: .invalidRequestRevision
        )
        try expectError(
            try await api(store, "GET", ServerAPI.refundHistory.target(.init(transactionId: "2000000000000999"))),
            status: 404,
            code: .transactionIdNotFound)
        #expect(try await store.stop() == 0)
    }

    /// On the shared store, as a customer of its own (the order is theirs).
    @Test func lookUpOrderIdFindsTheOrdersTransactions() async throws {
        try await MockStoreHarness.withShared { store in
            let root = try await root(store)
            let id = try await buy(store)
            let order = try await #require(try store.testStore.transactions().first)
                .orderId
            // The store numbers its orders MOCK00000001 on (its own store's tests check the first); here the order is
            // one of many on the shared store.
            #expect(order.hasPrefix("MOCK") && order.count == 12 && order.dropFirst(4).allSatisfy(\.isNumber))
            let found = try await api(store, "GET", ServerAPI.lookUpOrder.path(.init(orderId: order)))
            #expect(found.status == 200)
            let body = try found.decoded(OrderLookupResponseBody.self)
            #expect(body.status == .valid)
            #expect(try transactions(body.signedTransactions, root: root).map(\.transactionId) == [id])
            let unknown = try await api(store, "GET", ServerAPI.lookUpOrder.path(.init(orderId: "MOCK99999999")))
                .decoded(
                    OrderLookupResponseBody.self)
            #expect(unknown == OrderLookupResponseBody(status: .invalid, signedTransactions: []))
        }
    }

    @Test func consumptionInformationIsValidatedAndRecorded() async throws {
        // The test catalogue of two products, the second made a non-consumable.
        var text = try String(contentsOfFile: Repository.twoPackCatalogue, encoding: .utf8)
        text = text.replacingOccurrences(
            of: #""type" : "Consumable""#, with: #""type" : "NonConsumable""#, options: [],
            range: text.range(of: "ai.voicedebrief.app.credit.1000").map { $0.lowerBound..<text.endIndex })
        let catalogue = try directory.write(text, to: "mixed.storekit")
        let store = try await start(catalogue: catalogue)
        let id = try await buy(store)
        let v2 =
            #"{"customerConsented": true, "sampleContentProvided": false, "deliveryStatus": "DELIVERED", "consumptionPercentage": 25000, "refundPreference": "DECLINE"}"#
        let accepted = try await api(store, "PUT", ServerAPI.sendConsumption.path(.init(transactionId: id)), json: v2)
        #expect(accepted.status == 202)
        #expect(accepted.body.isEmpty)
        let v1 = """
            {"customerConsented": true, "consumptionStatus": 3, "platform": 1, "sampleContentProvided": false,
             "deliveryStatus": 0, "appAccountToken": "", "accountTenure": 2, "playTime": 3,
             "lifetimeDollarsRefunded": 1, "lifetimeDollarsPurchased": 2, "userStatus": 1, "refundPreference": 2}
            """
        #expect(
            try await api(store, "PUT", ServerAPI.sendConsumptionV1.path(.init(transactionId: id)), json: v1).status
                == 202)
        let recorded = try await store.testStore.consumption()
        #expect(recorded.map(\.apiVersion) == [.v2, .v1])
        #expect(recorded.allSatisfy { $0.transactionId == id })
        #expect(recorded[0].request["deliveryStatus"] == .string("DELIVERED"))
        #expect(recorded[1].request["consumptionStatus"] == .number(3))

        let path2 = ServerAPI.sendConsumption.path(.init(transactionId: id))
        try expectError(
            try await api(
                store, "PUT", path2,
                json: v2.replacingOccurrences(of: "\"customerConsented\": true", with: "\"customerConsented\": false")),
            status: 400, code: .invalidCustomerConsented)
        try expectError(
            try await api(store, "PUT", path2, json: v2.replacingOccurrences(of: "\"DELIVERED\"", with: "\"LOST\"")),
            status: 400, code: .invalidDeliveryStatus)
        try expectError(
            try await api(store, "PUT", path2, json: #"{"customerConsented": true, "deliveryStatus": "DELIVERED"}"#),
            status: 400, code: .invalidSampleContentProvided)
        let path1 = ServerAPI.sendConsumptionV1.path(.init(transactionId: id))
        try expectError(
            try await api(
                store, "PUT", path1, json: v1.replacingOccurrences(of: "\"platform\": 1", with: "\"platform\": 9")),
            status: 400, code: .invalidPlatform)
        try expectError(
            try await api(
                store, "PUT", path1,
                json: v1.replacingOccurrences(of: "\"appAccountToken\": \"\"", with: "\"appAccountToken\": \"x\"")),
            status: 400, code: .invalidConsumptionAppAccountToken)
        try expectError(
            try await api(
                store, "PUT", path1, json: v1.replacingOccurrences(of: "\"userStatus\": 1", with: "\"userStatus\": 5")),
            status: 400, code: .invalidUserStatus)
        try expectError(try await api(store, "PUT", path1, json: "{not json"), status: 400, code: .generalBadRequest)
        try expectError(
            try await api(
                store, "PUT", ServerAPI.sendConsumption.path(.init(transactionId: "2000000000000999")), json: v2),
            status: 404,
            code: .transactionIdNotFound)
        // Apple: Send Consumption Information (V2) takes any product type; V1 only consumables and
        // auto-renewable subscriptions (4000043 otherwise).
        let nonConsumable = try await buy(store, "ai.voicedebrief.app.credit.1000")
        try expectError(
            try await api(
                store, "PUT", ServerAPI.sendConsumptionV1.path(.init(transactionId: nonConsumable)), json: v1),
            status: 400,
            code: .invalidTransactionNotConsumable)
        #expect(
            try await api(store, "PUT", ServerAPI.sendConsumption.path(.init(transactionId: nonConsumable)), json: v2)
                .status == 202)
        await #expect(
            try store.testStore.consumption().count == 3,
            "refusals are not recorded")
        #expect(try await store.stop() == 0)
    }

    @Test func serverFinishAndTestNotificationWithoutAReceiver() async throws {
        try await MockStoreHarness.withShared { store in
            let id = try await buy(store)
            let finish = try await api(store, "POST", ServerAPI.finishTransaction.path(.init(transactionId: id)))
            #expect(finish.status == 200)
            await #expect(try store.testStore.transactions().first?.finished == true)
            try expectError(
                try await api(store, "POST", ServerAPI.requestTestNotification.path()), status: 404,
                code: .serverNotificationURLNotFound)
            try expectError(
                try await api(store, "GET", ServerAPI.testNotificationStatus.path(.init(token: "nothing_1"))),
                status: 404,
                code: .testNotificationNotFound)
        }
    }
}
