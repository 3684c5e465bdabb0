import Foundation
import Signing
import StoreWire
import Testing

@testable import MockStoreHTTP
@testable import MockStoreServer
@testable import StoreKitCatalogue

/// The device API, in-process: routing, validation and the signed answers, without a socket.
@Suite struct MockStoreRouterTests {
    static let secret = Array("router-test-secret".utf8)
    static let credit500 = "ai.voicedebrief.app.credit.500"
    static let credit1000 = "ai.voicedebrief.app.credit.1000"
    static let token = "9B2B9D1E-4A5F-4C1E-8A77-1F2E3D4C5B6A"

    let directory: TemporaryDirectory
    let clock: ManualClock
    let router: MockStoreRouter
    var store: MockStore { router.store }

    init() throws {
        // The router's tests need a store of more than one product: a test catalogue of two (the app sells one).
        try self.init(catalogue: StoreKitConfiguration.load(contentsOf: Repository.twoPackCatalogue))
    }

    init(
        catalogue: StoreKitConfiguration, signer: any TransactionSigner = JWSTransactionSigner.hs256(secret: secret),
        rootCertificateDER: [UInt8]? = nil
    ) throws {
        directory = try TemporaryDirectory()
        clock = ManualClock(fixedDate)
        let database = try TransactionStore(path: directory.file("store.sqlite"))
        router = MockStoreRouter(
            store: MockStore(
                configuration: .init(
                    catalogue: catalogue, bundleId: "ai.voicedebrief.app", signer: signer,
                    rootCertificateDER: rootCertificateDER, clock: clock, transactionIDs: SandboxTransactionIDs()),
                database: database))
    }

    func get(_ path: String, query: [HTTPRequest.QueryItem] = []) -> HTTPResponse {
        router.respond(to: HTTPRequest(method: "GET", path: path, query: query))
    }

    func post(_ path: String, _ body: String) -> HTTPResponse {
        router.respond(to: HTTPRequest(method: "POST", path: path, body: Array(body.utf8)))
    }

    func buy(_ body: String) -> HTTPResponse {
        post(DeviceAPI.purchase.path(), body)
    }

    /// The payload of an HS256 transaction, after checking its signature.
    func verifiedPayload(_ jws: String?, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> SignedTransactionPayload
    {
        let parsed = try CompactJWS.parse(try #require(jws, sourceLocation: sourceLocation))
        try parsed.verifyHS256(secret: Self.secret)
        #expect(parsed.header.alg == "HS256", sourceLocation: sourceLocation)
        #expect(parsed.header.typ == nil, sourceLocation: sourceLocation)
        return try JSONDecoder().decode(SignedTransactionPayload.self, from: Data(parsed.payload))
    }

    /// Checks an error response: status, exact content type, code.
    func expectError(
        _ response: HTTPResponse, status: Int, code: StoreErrorCode, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.header("Content-Type") == "application/json", sourceLocation: sourceLocation)
        let body = response.decoded(StoreErrorBody.self, sourceLocation: sourceLocation)
        #expect(body?.errorCode == code, sourceLocation: sourceLocation)
        #expect(body?.errorMessage.isEmpty == false, sourceLocation: sourceLocation)
    }
}

// MARK: Products

extension MockStoreRouterTests {
    @Test func productsAreReturnedInOrderAskedEachOnceUnknownLeftOut() {
        let response = get(
            DeviceAPI.products.path(),
            query: [.init("ids", "\(Self.credit1000),nope,\(Self.credit500),\(Self.credit1000)")])
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        let products = response.decoded(StoreProductsBody.self)?.products
        #expect(products?.map(\.id) == [Self.credit1000, Self.credit500])
        #expect(
            products?.last
                == StoreProductInfo(
                    id: Self.credit500, type: .consumable, displayName: "£5 of credit",
                    description: "£5 of credit to spend in VoiceDebrief", displayPrice: "£5.00", price: "5.00",
                    currency: "GBP", locale: "en_GB"))
        #expect(products?.first?.displayPrice == "£10.00")
    }

    @Test func productIDsMayRepeatTheArgument() {
        let response = get(
            DeviceAPI.products.path(), query: [.init("ids", Self.credit500), .init("ids", " \(Self.credit1000) ")])
        #expect(response.decoded(StoreProductsBody.self)?.products.map(\.id) == [Self.credit500, Self.credit1000])
    }

    @Test func noIDsOrOnlyUnknownIDsGiveAnEmptyList() {
        #expect(get(DeviceAPI.products.path()).decoded(StoreProductsBody.self)?.products == [])
        #expect(
            get(DeviceAPI.products.path(), query: [.init("ids", "a,,b")]).decoded(StoreProductsBody.self)?.products
                == [])
    }

    @Test func productsFollowTheCatalogueLocaleAndStorefront() throws {
        let router = try MockStoreRouterTests(
            catalogue: StoreKitConfiguration.parse(Data(StoreKitFixtures.version2.utf8), source: "v2"))
        let products = router.get(
            DeviceAPI.products.path(), query: [.init("ids", "com.example.coins,com.example.season")]
        )
        .decoded(StoreProductsBody.self)?.products
        #expect(products?.map(\.displayName) == ["Münzen", "Season"])
        #expect(products?.map(\.type) == [.consumable, .nonRenewable])
        #expect(products?.map(\.currency) == ["USD", "USD"])
        #expect(products?.first?.price == "0.5")
        #expect(products?.first?.displayPrice.contains("0,50") == true, "German formatting of a dollar price")
    }
}

// MARK: Purchases

extension MockStoreRouterTests {
    @Test func purchaseSignsATransactionWithApplesFields() throws {
        let response = buy(#"{"productId": "\#(Self.credit500)", "appAccountToken": "\#(Self.token)"}"#)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        let body = try #require(response.decoded(PurchaseResponseBody.self))
        #expect(body.result == .success)
        var payload = try verifiedPayload(body.signedTransaction)
        // Issue 15: the customer's appTransactionId and the device's verification fields, checked, then set aside.
        #expect(payload.appTransactionId?.count == 18)
        let nonce = try #require(payload.deviceVerificationNonce.flatMap(UUID.init(uuidString:)))
        #expect(payload.deviceVerification == DeviceVerification().stamp(nonce: nonce).verification)
        (payload.appTransactionId, payload.deviceVerification, payload.deviceVerificationNonce) = (nil, nil, nil)
        #expect(
            payload
                == SignedTransactionPayload(
                    transactionId: "2000000000000001", originalTransactionId: "2000000000000001",
                    bundleId: "ai.voicedebrief.app", productId: Self.credit500, purchaseDate: 1_760_000_000_000,
                    originalPurchaseDate: 1_760_000_000_000, quantity: 1, type: .consumable,
                    inAppOwnershipType: .purchased,
                    signedDate: 1_760_000_000_000, environment: .sandbox, transactionReason: .purchase,
                    storefront: "GBR",
                    storefrontId: "143444", price: 5_000, currency: "GBP", appAccountToken: Self.token))
    }

    @Test func priceIsUnitPriceTimesQuantity() throws {
        let body = buy(#"{"productId": "\#(Self.credit1000)", "quantity": 3}"#).decoded(PurchaseResponseBody.self)
        let payload = try verifiedPayload(body?.signedTransaction)
        #expect(payload.quantity == 3)
        #expect(payload.price == 30_000)
        #expect(payload.appAccountToken == nil)
    }

    @Test func signedDateIsWhenSignedPurchaseDateStays() throws {
        let bought = buy(#"{"productId": "\#(Self.credit500)"}"#).decoded(PurchaseResponseBody.self)
        clock.advance(by: 60)
        let unfinished = get(DeviceAPI.unfinished.path()).decoded(SignedTransactionsBody.self)
        let first = try verifiedPayload(bought?.signedTransaction)
        let later = try verifiedPayload(unfinished?.signedTransactions.first)
        #expect(later.transactionId == first.transactionId)
        #expect(later.purchaseDate == first.purchaseDate)
        #expect(later.signedDate == first.signedDate + 60_000)
    }

    @Test func eachPurchaseIsANewTransaction() throws {
        let first = try verifiedPayload(
            buy(#"{"productId": "\#(Self.credit500)"}"#)
                .decoded(PurchaseResponseBody.self)?.signedTransaction)
        let second = try verifiedPayload(
            buy(#"{"productId": "\#(Self.credit500)"}"#)
                .decoded(PurchaseResponseBody.self)?.signedTransaction)
        #expect(first.transactionId == "2000000000000001")
        #expect(second.transactionId == "2000000000000002")
    }

    @Test func unknownProductIsRefused() throws {
        expectError(buy(#"{"productId": "ai.voicedebrief.app.credit.9999"}"#), status: 400, code: .invalidProductId)
        #expect(try store.allTransactions().isEmpty)
    }

    @Test(arguments: [0, -1, 11, 1_000])
    func quantityOutside1To10IsRefused(quantity: Int) throws {
        expectError(
            buy(#"{"productId": "\#(Self.credit500)", "quantity": \#(quantity)}"#), status: 400,
            code: .generalBadRequest)
        #expect(try store.allTransactions().isEmpty)
    }

    @Test(arguments: [1, 10])
    func quantityAtTheBoundsIsAccepted(quantity: Int) {
        #expect(buy(#"{"productId": "\#(Self.credit500)", "quantity": \#(quantity)}"#).status == 200)
    }

    @Test(arguments: ["not-a-uuid", "", "9b2b9d1e4a5f4c1e8a771f2e3d4c5b6a", "9b2b9d1e-4a5f-4c1e-8a77-1f2e3d4c5b6"])
    func appAccountTokenThatIsNotAUUIDIsRefused(token: String) throws {
        expectError(
            buy(#"{"productId": "\#(Self.credit500)", "appAccountToken": "\#(token)"}"#), status: 400,
            code: .invalidAppAccountToken)
        #expect(try store.allTransactions().isEmpty)
    }

    @Test(arguments: [
        "{", "[]", "null", "\"text\"", #"{"quantity": 1}"#, #"{"productId": 5}"#,
        #"{"productId": "ai.voicedebrief.app.credit.500", "quantity": "2"}"#,
        #"{"productId": "ai.voicedebrief.app.credit.500", "quantity": 1.5}"#,
        #"{"productId": "ai.voicedebrief.app.credit.500", "quantity": 99999999999999999999999}"#,
        #"{"productId": null}"#, "", "\u{FF}\u{FE}",
    ])
    func malformedPurchaseBodiesAreBadRequests(body: String) throws {
        expectError(buy(body), status: 400, code: .generalBadRequest)
        #expect(try store.allTransactions().isEmpty)
    }

    @Test func missingFieldIsNamed() {
        let message = buy(#"{"quantity": 1}"#).decoded(StoreErrorBody.self)?.errorMessage
        #expect(message == "Missing field \"productId\".")
    }

    @Test func nonConsumableIsBoughtOnceAndGivenBack() throws {
        let router = try MockStoreRouterTests(
            catalogue: StoreKitConfiguration.parse(Data(StoreKitFixtures.version5.utf8), source: "v5"))
        // The fixture's _storeKitErrors makes purchases fail (see catalogueStoreKitErrorsMakePurchasesFail).
        _ = try router.store.settings.clearFailure(api: "purchase")
        let first = try router.verifiedPayload(
            router.buy(#"{"productId": "com.example.lifetime"}"#)
                .decoded(PurchaseResponseBody.self)?.signedTransaction)
        let again = try router.verifiedPayload(
            router.buy(#"{"productId": "com.example.lifetime"}"#)
                .decoded(PurchaseResponseBody.self)?.signedTransaction)
        #expect(first.type == .nonConsumable)
        #expect(first.price == 199_990)
        #expect(first.currency == "USD")
        #expect(first.storefront == "USA")
        #expect(first.storefrontId == "143441")
        #expect(again.transactionId == first.transactionId)
        #expect(try router.store.allTransactions().count == 1)
        router.expectError(
            router.buy(#"{"productId": "com.example.lifetime", "quantity": 2}"#), status: 400, code: .generalBadRequest)
    }

    @Test func askToBuyMakesPurchasesPending() throws {
        let router = try MockStoreRouterTests(
            catalogue: StoreKitConfiguration.parse(Data(StoreKitFixtures.version2.utf8), source: "v2"))
        let response = router.buy(#"{"productId": "com.example.coins"}"#)
        #expect(response.status == 200)
        #expect(
            router.get(DeviceAPI.unfinished.path()).decoded(SignedTransactionsBody.self)?
                .signedTransactions == [])
        let pending = try #require(try router.store.allTransactions().first)
        // The pending answer names the waiting transaction (a mock store addition, issue 13).
        #expect(
            response.decoded(PurchaseResponseBody.self)
                == PurchaseResponseBody(result: .pending, pendingReason: .askToBuy, transactionId: pending.id))
        #expect(pending.status == .pending)
        router.expectError(
            router.post(DeviceAPI.finish.path(.init(transactionId: pending.id)), "{}"), status: 404,
            code: .transactionIdNotFound)
    }

    @Test func failedSigningRecordsNothing() throws {
        struct BrokenSigner: TransactionSigner {
            struct Broken: Error, CustomStringConvertible {
                var description: String { "the signing key is unusable" }
            }
            func sign(_ payload: SignedTransactionPayload) throws -> String { throw Broken() }
        }
        let router = try MockStoreRouterTests(
            catalogue: StoreKitConfiguration.load(contentsOf: Repository.catalogue), signer: BrokenSigner())
        let response = router.buy(#"{"productId": "\#(Self.credit500)"}"#)
        router.expectError(response, status: 500, code: .generalInternal)
        #expect(response.decoded(StoreErrorBody.self)?.errorMessage.contains("the signing key is unusable") == true)
        #expect(try router.store.allTransactions().isEmpty)
    }

    @Test func unsignedModeUsesAlgNone() throws {
        let router = try MockStoreRouterTests(
            catalogue: StoreKitConfiguration.load(contentsOf: Repository.catalogue),
            signer: JWSTransactionSigner.unsigned)
        let jws = try #require(
            router.buy(#"{"productId": "\#(Self.credit500)"}"#)
                .decoded(PurchaseResponseBody.self)?.signedTransaction)
        let parsed = try CompactJWS.parse(jws)
        #expect(parsed.header.alg == "none")
        #expect(parsed.signature.isEmpty)
        #expect(throws: SigningError.self) { try parsed.verifyHS256(secret: Self.secret) }
        #expect(try JSONDecoder().decode(SignedTransactionPayload.self, from: Data(parsed.payload)).price == 5_000)
    }

    @Test func es256TransactionsVerifyAgainstTheTestRoot() throws {
        let authority = try TestCertificateAuthority.make(validFrom: fixedDate.addingTimeInterval(-86_400))
        let router = try MockStoreRouterTests(
            catalogue: StoreKitConfiguration.load(contentsOf: Repository.catalogue),
            signer: JWSTransactionSigner.es256(authority: authority),
            rootCertificateDER: authority.root.derRepresentation)
        let jws = try #require(
            router.buy(#"{"productId": "\#(Self.credit500)"}"#)
                .decoded(PurchaseResponseBody.self)?.signedTransaction)
        let parsed = try CompactJWS.parse(jws)
        #expect(parsed.header.alg == "ES256")
        #expect(parsed.header.x5c?.count == 3)
        let root = try Certificate(derRepresentation: router.get(SandboxAPI.rootCertificate.path()).body)
        try parsed.verifyES256(chain: CertificateChainVerifier(trustedRoot: root), at: fixedDate)
        let stranger = try TestCertificateAuthority.make(validFrom: fixedDate.addingTimeInterval(-86_400))
        #expect(throws: SigningError.self) {
            try parsed.verifyES256(chain: CertificateChainVerifier(trustedRoot: stranger.root), at: fixedDate)
        }
    }
}

// MARK: Unfinished and finish

extension MockStoreRouterTests {
    @Test func unfinishedListsPurchasesUntilFinished() throws {
        let a = try verifiedPayload(
            buy(#"{"productId": "\#(Self.credit500)"}"#)
                .decoded(PurchaseResponseBody.self)?.signedTransaction)
        let b = try verifiedPayload(
            buy(#"{"productId": "\#(Self.credit1000)"}"#)
                .decoded(PurchaseResponseBody.self)?.signedTransaction)
        let listed = try #require(get(DeviceAPI.unfinished.path()).decoded(SignedTransactionsBody.self))
        #expect(
            try listed.signedTransactions.map { try verifiedPayload($0).transactionId }
                == [a.transactionId, b.transactionId])

        let finish = post(DeviceAPI.finish.path(.init(transactionId: a.transactionId)), "{}")
        #expect(finish.status == 200)
        #expect(finish.header("Content-Type") == "application/json")
        #expect(finish.body == Array("{}".utf8))
        let after = try #require(get(DeviceAPI.unfinished.path()).decoded(SignedTransactionsBody.self))
        #expect(try after.signedTransactions.map { try verifiedPayload($0).transactionId } == [b.transactionId])
    }

    @Test func finishTwiceIsFine() throws {
        let a = try verifiedPayload(
            buy(#"{"productId": "\#(Self.credit500)"}"#)
                .decoded(PurchaseResponseBody.self)?.signedTransaction)
        #expect(post(DeviceAPI.finish.path(.init(transactionId: a.transactionId)), "").status == 200)
        #expect(post(DeviceAPI.finish.path(.init(transactionId: a.transactionId)), "{}").status == 200)
        #expect(try store.allTransactions().first?.isFinished == true)
    }

    @Test func finishingAnUnknownTransactionIs4040010() {
        let response = post(DeviceAPI.finish.path(.init(transactionId: "2000000000000042")), "{}")
        expectError(response, status: 404, code: .transactionIdNotFound)
        #expect(response.decoded(StoreErrorBody.self)?.errorMessage == "Transaction id not found.")
    }

    @Test(arguments: ["abc", "12a", "-1", String(repeating: "9", count: 33)])
    func finishingANonNumericIDIs4000006(id: String) {
        expectError(
            post(DeviceAPI.finish.path(.init(transactionId: id)), "{}"), status: 400, code: .invalidTransactionId)
    }
}

// MARK: Routing

extension MockStoreRouterTests {
    @Test(arguments: [
        "/", "/storekit", "/storekit/v1", "/storekit/v1/products/", "/storekit/v2/products",
        "/inApps/v9/transactions/1", "/inApps/v1/transactions/1/extra",
        "/storekit/v1/transactions//finish", "/storekit/v1/transactions/1/finish/extra",
        "/test/v1/root-certificate.pem",
    ])
    func unknownPathsAre404(path: String) {
        expectError(get(path), status: 404, code: .notFound)
    }

    @Test func wrongMethodIs405WithAllow() {
        let response = router.respond(to: HTTPRequest(method: "DELETE", path: DeviceAPI.products.path()))
        expectError(response, status: 405, code: .methodNotAllowed)
        #expect(response.header("Allow") == "GET")
        let getPurchase = get(DeviceAPI.purchase.path())
        expectError(getPurchase, status: 405, code: .methodNotAllowed)
        #expect(getPurchase.header("Allow") == "POST")
        expectError(
            router.respond(to: HTTPRequest(method: "GET", path: DeviceAPI.finish.path(.init(transactionId: "1")))),
            status: 405, code: .methodNotAllowed)
    }

    @Test func headIsAnsweredLikeGet() {
        let response = router.respond(to: HTTPRequest(method: "HEAD", path: DeviceAPI.unfinished.path()))
        #expect(response.status == 200)
    }

    @Test func rootCertificateIsDER() throws {
        let authority = try TestCertificateAuthority.make(validFrom: fixedDate)
        let router = try MockStoreRouterTests(
            catalogue: StoreKitConfiguration.load(contentsOf: Repository.catalogue),
            rootCertificateDER: authority.root.derRepresentation)
        let response = router.get(SandboxAPI.rootCertificate.path())
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/pkix-cert")
        #expect(response.body == authority.root.derRepresentation)
    }

    @Test func rootCertificateIs404WithoutOne() {
        expectError(get(SandboxAPI.rootCertificate.path()), status: 404, code: .notFound)
    }

    @Test func payloadTooLargeIsJSON() {
        let response = router.payloadTooLarge(limit: 65_536)
        #expect(response.status == 413)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.decoded(StoreErrorBody.self)?.errorCode == .payloadTooLarge)
    }

    @Test func aClosedStoreAnswers500AndKeepsAnswering() throws {
        try store.close()
        expectError(get(DeviceAPI.unfinished.path()), status: 500, code: .generalInternal)
        expectError(buy(#"{"productId": "\#(Self.credit500)"}"#), status: 500, code: .generalInternal)
        expectError(
            get(DeviceAPI.products.path(), query: [.init("ids", Self.credit500)]), status: 500, code: .generalInternal)
    }
}
