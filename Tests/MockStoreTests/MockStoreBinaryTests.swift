import Foundation
import FoundationNetworking
import Signing
import StoreWire
import Testing

/// End to end: the built `mockstore` binary on port 0, driven over HTTP with URLSession.
@Suite struct MockStoreBinaryTests {
    static let credit500 = "ai.voicedebrief.app.credit.500"
    static let credit1000 = "ai.voicedebrief.app.credit.1000"

    let directory: TemporaryDirectory
    var data: String { directory.file("data") }

    init() throws {
        directory = try TemporaryDirectory("mockstore-e2e")
    }

    /// The payload of an ES256 transaction, after verifying its chain against `root` at its signing date.
    func verifiedPayload(_ jws: String, root: Certificate, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> SignedTransactionPayload
    {
        let parsed = try CompactJWS.parse(jws)
        #expect(parsed.header.alg == "ES256", sourceLocation: sourceLocation)
        // Apple's header is {alg, x5c} and nothing else (issue 15; it carried typ "JWT" before).
        #expect(parsed.header.typ == nil, sourceLocation: sourceLocation)
        #expect(parsed.header.kid == nil, sourceLocation: sourceLocation)
        #expect(parsed.header.x5c?.count == 3, sourceLocation: sourceLocation)
        let payload = try JSONDecoder().decode(SignedTransactionPayload.self, from: Data(parsed.payload))
        let signedAt = Date(timeIntervalSince1970: Double(payload.signedDate) / 1_000)
        try parsed.verifyES256(chain: CertificateChainVerifier(trustedRoot: root), at: signedAt)
        return payload
    }

    func rootCertificate(of store: MockStoreHarness) async throws -> Certificate {
        let response = try await store.get(SandboxAPI.rootCertificate.path())
        #expect(response.status == 200)
        #expect(response.contentType == "application/pkix-cert")
        return try Certificate(derRepresentation: response.body)
    }

    func buy(_ store: MockStoreHarness, _ productId: String = credit500, extra: String = "") async throws -> String {
        let response = try await store.post(
            DeviceAPI.purchase.path(), json: #"{"productId": "\#(productId)"\#(extra)}"#)
        #expect(response.status == 200)
        #expect(response.contentType == "application/json")
        let body = try response.decoded(PurchaseResponseBody.self)
        #expect(body.result == .success)
        return try #require(body.signedTransaction)
    }
}

// MARK: Command line

extension MockStoreBinaryTests {
    @Test func helpPrintsUsageAndExits0() async throws {
        let outcome = try await MockStoreHarness.run(["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasPrefix("Usage: mockstore"))
        #expect(outcome.stderr.isEmpty)
    }

    @Test func usageErrorExits64AndSaysWhat() async throws {
        let outcome = try await MockStoreHarness.run(["--port", "http"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("--port \"http\" is not a port number"))
        #expect(outcome.stdout.isEmpty)
    }

    @Test func missingCatalogueExits1NamingTheFile() async throws {
        let missing = directory.file("nowhere.storekit")
        let outcome = try await MockStoreHarness.startInProcess(["--catalogue", missing, "--data", data])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains(missing))
        #expect(outcome.stderr.contains("no such file"))
        #expect(outcome.stdout.isEmpty, "never says it is listening")
    }

    @Test func invalidCatalogueExits1SayingWhere() async throws {
        let path = try directory.write(
            #"{"products": [{"productID": "x", "type": "Gift", "displayPrice": "1"}], "#
                + #""version": {"major": 3, "minor": 0}}"#,
            to: "bad.storekit")
        let outcome = try await MockStoreHarness.startInProcess(["--catalogue", path, "--data", data])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("\(path): products[0].type: type \"Gift\""))
    }

    @Test func insecureSecretFileExits1() async throws {
        let secret = try directory.write("shared secret", to: "secret", mode: 0o644)
        let outcome = try await MockStoreHarness.startInProcess(
            ["--catalogue", Repository.catalogue, "--data", data, "--signing", "hs256", "--secret-file", secret])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains(secret))
        #expect(outcome.stderr.contains("chmod 600"))
    }

    @Test func unreadableTestCAIsAnErrorNotReplaced() async throws {
        let first = try await MockStoreHarness.start(dataDirectory: data)
        #expect(try await first.stop() == 0)
        let key = data + "/ca/leaf.key"
        let before = try Data(contentsOf: URL(fileURLWithPath: key))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key)
        let outcome = try await MockStoreHarness.startInProcess(["--catalogue", Repository.catalogue, "--data", data])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("cannot read the test CA in \(data)/ca"))
        #expect(outcome.stderr.contains(key))
        #expect(try Data(contentsOf: URL(fileURLWithPath: key)) == before, "the CA is left as it was")
    }

    @Test func dataPathThatIsAFileExits1() async throws {
        let file = try directory.write("not a directory", to: "data-file")
        let outcome = try await MockStoreHarness.startInProcess(["--catalogue", Repository.catalogue, "--data", file])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("data directory \(file) exists but is not a directory"))
    }

    @Test func secondStoreOnTheSameDataIsRefused() async throws {
        let first = try await MockStoreHarness.start(dataDirectory: data)
        let outcome = try await MockStoreHarness.run([
            "--catalogue", Repository.catalogue, "--data", data, "--port", "0",
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("another mockstore is using this data directory"))
        #expect(try await first.get(DeviceAPI.unfinished.path()).status == 200, "the first goes on")
        #expect(try await first.stop() == 0)
    }
}

// MARK: The device API

extension MockStoreBinaryTests {
    @Test func topUpFlowThroughEveryEndpoint() async throws {
        // A catalogue of two products, to list more than one.
        let store = try await MockStoreHarness.start(dataDirectory: data, catalogue: Repository.twoPackCatalogue)

        let products = try await store.get(
            DeviceAPI.products.target(.init(ids: [Self.credit500, "unknown", Self.credit1000, Self.credit500])))
        #expect(products.status == 200)
        #expect(products.contentType == "application/json")
        let listed = try products.decoded(StoreProductsBody.self).products
        #expect(listed.map(\.id) == [Self.credit500, Self.credit1000])
        #expect(listed.map(\.displayPrice) == ["£5.00", "£10.00"])
        #expect(listed.map(\.price) == ["5.00", "10.00"])
        #expect(listed.allSatisfy { $0.currency == "GBP" && $0.type == .consumable })

        let root = try await rootCertificate(of: store)
        let token = UUID().uuidString.lowercased()
        let before = Date().millisecondsSince1970 - 1
        let jws = try await buy(store, extra: #", "quantity": 2, "appAccountToken": "\#(token)""#)
        let payload = try verifiedPayload(jws, root: root)
        #expect(payload.transactionId == "2000000000000001")
        #expect(payload.originalTransactionId == payload.transactionId)
        #expect(payload.bundleId == "ai.voicedebrief.app")
        #expect(payload.productId == Self.credit500)
        #expect(payload.quantity == 2)
        #expect(payload.price == 10_000)
        #expect(payload.currency == "GBP")
        #expect(payload.type == .consumable)
        #expect(payload.inAppOwnershipType == .purchased)
        #expect(payload.environment == .sandbox)
        #expect(payload.transactionReason == .purchase)
        #expect(payload.storefront == "GBR")
        #expect(payload.storefrontId == "143444")
        #expect(payload.appAccountToken == token)
        #expect(payload.purchaseDate == payload.originalPurchaseDate)
        #expect(payload.purchaseDate >= before && payload.purchaseDate <= Date().millisecondsSince1970)
        #expect(payload.signedDate >= payload.purchaseDate)

        let unfinished = try await store.get(DeviceAPI.unfinished.path())
        #expect(unfinished.status == 200)
        #expect(unfinished.contentType == "application/json")
        let signed = try unfinished.decoded(SignedTransactionsBody.self).signedTransactions
        #expect(try signed.map { try verifiedPayload($0, root: root).transactionId } == [payload.transactionId])

        let finish = try await store.post(
            DeviceAPI.finish.path(.init(transactionId: payload.transactionId)), json: "{}")
        #expect(finish.status == 200)
        #expect(finish.contentType == "application/json")
        #expect(finish.body == Array("{}".utf8))
        let again = try await store.post(DeviceAPI.finish.path(.init(transactionId: payload.transactionId)), json: "{}")
        #expect(again.status == 200, "finish is idempotent")
        #expect(
            try await store.get(DeviceAPI.unfinished.path()).decoded(SignedTransactionsBody.self)
                .signedTransactions.isEmpty)

        let unknown = try await store.post(DeviceAPI.finish.path(.init(transactionId: "2000000000000099")), json: "{}")
        try expectError(unknown, status: 404, code: .transactionIdNotFound)

        #expect(try await store.stop() == 0)
    }

    @Test func concurrentPurchasesGetDistinctIDs() async throws {
        let store = try await MockStoreHarness.start(dataDirectory: data)
        let root = try await rootCertificate(of: store)
        let purchases = URL(string: store.baseURL + DeviceAPI.purchase.path())
        let signed = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var request = URLRequest(url: try #require(purchases))
                    request.httpMethod = "POST"
                    request.httpBody = Data(#"{"productId": "ai.voicedebrief.app.credit.500"}"#.utf8)
                    let (data, _) = try await URLSession.shared.data(for: request)
                    let body = try JSONDecoder().decode(PurchaseResponseBody.self, from: data)
                    return try #require(body.signedTransaction)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let ids = try signed.map { try verifiedPayload($0, root: root).transactionId }
        #expect(Set(ids).count == 8)
        #expect(Set(ids) == Set((1...8).map { "200000000000000\($0)" }))
        #expect(try await store.stop() == 0)
    }

    @Test func badRequestsGet4xxAndTheServerStaysUp() async throws {
        let store = try await MockStoreHarness.start(dataDirectory: data)
        try expectError(
            try await store.post(DeviceAPI.purchase.path(), json: "{not json"), status: 400, code: .generalBadRequest)
        try expectError(
            try await store.post(DeviceAPI.purchase.path(), json: "[]"), status: 400, code: .generalBadRequest)
        try expectError(
            try await store.post(DeviceAPI.purchase.path(), json: #"{"productId": "nope"}"#), status: 400,
            code: .invalidProductId)
        try expectError(
            try await store.post(
                DeviceAPI.purchase.path(), json: #"{"productId": "\#(Self.credit500)", "quantity": 11}"#),
            status: 400, code: .generalBadRequest)
        try expectError(
            try await store.post(
                DeviceAPI.purchase.path(), json: #"{"productId": "\#(Self.credit500)", "appAccountToken": "x"}"#),
            status: 400, code: .invalidAppAccountToken)
        try expectError(
            try await store.request("DELETE", DeviceAPI.purchase.path()), status: 405, code: .methodNotAllowed)
        try expectError(try await store.get(DeviceAPI.purchase.path()), status: 405, code: .methodNotAllowed)
        try expectError(try await store.get("/nowhere"), status: 404, code: .notFound)
        try expectError(
            try await store.post(DeviceAPI.finish.path(.init(transactionId: "not-a-number")), json: "{}"), status: 400,
            code: .invalidTransactionId)
        // Over a connection of its own, its answer read even when the store stops reading the body it refuses (a
        // client still sending then sees a broken pipe: URLSession reported that instead of the answer).
        let oversized = try RawHTTPClient.send(
            "POST \(DeviceAPI.purchase.path()) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(200 * 1024)\r\nConnection: close\r\n\r\n",
            body: Array(repeating: UInt8(ascii: " "), count: 200 * 1024), port: store.port)
        #expect(oversized.status == 413)
        #expect(try JSONDecoder().decode(StoreErrorBody.self, from: Data(oversized.body)).errorCode == .payloadTooLarge)

        let garbage = try RawHTTPClient.exchange(
            Array("\u{1}\u{2} nonsense\r\n\r\n".utf8), host: "127.0.0.1", port: store.port)
        #expect(String(decoding: garbage, as: UTF8.self).hasPrefix("HTTP/1.1 400"))
        let chunk = String(repeating: "z", count: 40_000)
        let chunked = try RawHTTPClient.send(
            "POST \(DeviceAPI.purchase.path()) HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + "9C40\r\n\(chunk)\r\n9C40\r\n\(chunk)\r\n0\r\n\r\n",
            port: store.port)
        #expect(chunked.status == 413)
        #expect(chunked.headers["content-type"] == "application/json")

        #expect(store.isRunning)
        #expect(
            try await store.get(DeviceAPI.products.target(.init(ids: [Self.credit500]))).status == 200,
            "still answering")
        #expect(
            try await store.get(DeviceAPI.unfinished.path()).decoded(SignedTransactionsBody.self)
                .signedTransactions.isEmpty, "no bad request recorded anything")
        #expect(try await store.stop() == 0)
    }
}

// MARK: Restart and signals

extension MockStoreBinaryTests {
    @Test func restartKeepsUnfinishedTransactionsTheCAAndTheCounter() async throws {
        // A catalogue of two products: the one kept unfinished is the second.
        let firstRun = try await MockStoreHarness.start(dataDirectory: data, catalogue: Repository.twoPackCatalogue)
        let root = try await rootCertificate(of: firstRun)
        let finished = try verifiedPayload(try await buy(firstRun), root: root)
        let kept = try verifiedPayload(try await buy(firstRun, Self.credit1000), root: root)
        #expect(
            try await firstRun.post(DeviceAPI.finish.path(.init(transactionId: finished.transactionId)), json: "{}")
                .status
                == 200)
        #expect(try await firstRun.stop() == 0)

        let secondRun = try await MockStoreHarness.start(dataDirectory: data, catalogue: Repository.twoPackCatalogue)
        let rootAgain = try await rootCertificate(of: secondRun)
        #expect(rootAgain.derRepresentation == root.derRepresentation, "the test CA is reused, not remade")
        let unfinished = try await secondRun.get(DeviceAPI.unfinished.path())
            .decoded(SignedTransactionsBody.self).signedTransactions
        let payloads = try unfinished.map { try verifiedPayload($0, root: root) }
        #expect(payloads.map(\.transactionId) == [kept.transactionId])
        #expect(payloads.first?.price == 10_000)
        #expect(payloads.first?.purchaseDate == kept.purchaseDate)
        let next = try verifiedPayload(try await buy(secondRun), root: root)
        #expect(next.transactionId == "2000000000000003", "ids are never reused after a restart")
        #expect(
            try await secondRun.post(DeviceAPI.finish.path(.init(transactionId: finished.transactionId)), json: "{}")
                .status == 200, "a finished one stays known")
        #expect(try await secondRun.stop() == 0)
    }

    // Twenty stores started and signalled at once: the stage of real kills and signals (KillStage).
    @Test(.enabled(if: KillStage.isOn, KillStage.reason), arguments: [SIGTERM, SIGINT])
    func signalRightAfterTheListeningLineIsNotLost(signal: Int32) async throws {
        // The listening line is printed as soon as the signal sources exist; a signal sent at once must
        // still stop the store (it once could be taken by the main thread and lost).
        for round in 0..<10 {
            let store = try await MockStoreHarness.start(dataDirectory: data)
            #expect(try await store.stop(signal: signal) == 0, "round \(round)")
        }
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func signalStopsCleanlyAndClosesTheDatabase(signal: Int32) async throws {
        let store = try await MockStoreHarness.start(dataDirectory: data)
        _ = try await buy(store)
        #expect(FileManager.default.fileExists(atPath: data + "/mockstore.sqlite-wal"), "open in WAL mode")
        #expect(try await store.stop(signal: signal) == 0)
        #expect(
            !FileManager.default.fileExists(atPath: data + "/mockstore.sqlite-wal"),
            "closing the last connection checkpoints and removes the WAL")
        #expect(store.stderr.contains("stopped on \(signal == SIGINT ? "SIGINT" : "SIGTERM")"))
    }
}

// MARK: Signing modes

extension MockStoreBinaryTests {
    @Test func hs256SignsWithTheSharedSecret() async throws {
        let secretPath = try directory.write("a shared secret for tests\n", to: "secret", mode: 0o600)
        let store = try await MockStoreHarness.start(
            dataDirectory: data, extraArguments: ["--signing", "hs256", "--secret-file", secretPath])
        let parsed = try CompactJWS.parse(try await buy(store))
        #expect(parsed.header.alg == "HS256")
        #expect(parsed.header.x5c == nil)
        try parsed.verifyHS256(secret: Array("a shared secret for tests\n".utf8))
        #expect(throws: SigningError.self) { try parsed.verifyHS256(secret: Array("a shared secret for tests".utf8)) }
        #expect(try await store.stop() == 0)
    }

    @Test func noneModeSignsNothing() async throws {
        let store = try await MockStoreHarness.start(dataDirectory: data, extraArguments: ["--signing", "none"])
        let parsed = try CompactJWS.parse(try await buy(store))
        #expect(parsed.header.alg == "none")
        #expect(parsed.signature.isEmpty)
        #expect(try await store.stop() == 0)
    }

    @Test func bundleIdOptionIsSigned() async throws {
        let store = try await MockStoreHarness.start(
            dataDirectory: data, extraArguments: ["--bundle-id", "com.example.other"])
        let root = try await rootCertificate(of: store)
        #expect(try verifiedPayload(try await buy(store), root: root).bundleId == "com.example.other")
        #expect(try await store.stop() == 0)
    }
}

extension Date {
    fileprivate var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1_000).rounded(.down)) }
}
