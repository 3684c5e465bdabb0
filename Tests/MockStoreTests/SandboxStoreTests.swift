import Foundation
import Signing
import StoreTestControls
import StoreWire
import Testing

@testable import MockStoreSQLite
@testable import MockStoreServer
@testable import StoreKitCatalogue

/// The sandbox's logic in-process, with a clock the test moves: the updates feed's coalescing and paging, the
/// bearer-token rules, and the migration of a version 1 database.
@Suite struct SandboxStoreTests {
    static let secret = Array("sandbox-test-secret".utf8)
    static let credit500 = "ai.voicedebrief.app.credit.500"

    let directory: TemporaryDirectory
    let clock: ManualClock
    let store: MockStore

    init() throws {
        directory = try TemporaryDirectory()
        clock = ManualClock(fixedDate)
        store = MockStore(
            configuration: .init(
                catalogue: try StoreKitConfiguration.load(contentsOf: Repository.catalogue),
                bundleId: "ai.voicedebrief.app", signer: JWSTransactionSigner.hs256(secret: Self.secret), clock: clock),
            database: try TransactionStore(path: directory.file("store.sqlite")))
    }

    func ids(_ body: TransactionUpdatesBody) throws -> [String] {
        try body.signedTransactions.map { jws in
            let parsed = try CompactJWS.parse(jws)
            try parsed.verifyHS256(secret: Self.secret)
            return try JSONDecoder().decode(SignedTransactionPayload.self, from: Data(parsed.payload)).transactionId
        }
    }
}

extension SandboxStoreTests {
    @Test func changesToOneTransactionAreCoalescedIntoItsLatestState() throws {
        _ = try store.settings.updateSettings(TestSettingsUpdate(askToBuyEnabled: true))
        _ = try store.purchases.purchase(PurchaseRequestBody(productId: Self.credit500))
        let id = try store.controls.testTransactions().transactions[0].transactionId
        let start = try store.purchases.updates(after: nil)
        clock.advance(by: 60)
        _ = try store.controls.approve(id: id)
        clock.advance(by: 60)
        _ = try store.refunds.refund(id: id, reason: nil)
        let feed = try store.purchases.updates(after: start.cursor)
        #expect(try ids(feed) == [id], "approved and refunded: delivered once")
        let payload = try JSONDecoder().decode(
            SignedTransactionPayload.self, from: Data(try CompactJWS.parse(feed.signedTransactions[0]).payload))
        #expect(payload.revocationDate == fixedDate.addingTimeInterval(120).millisecondsSince1970)
        #expect(payload.purchaseDate == fixedDate.addingTimeInterval(60).millisecondsSince1970, "bought when approved")
    }

    @Test func theFeedPagesAndTheCursorResumes() throws {
        for _ in 0..<(StorePurchases.updatesPageSize + 7) {
            _ = try store.controls.buyOutside(PurchaseRequestBody(productId: Self.credit500))
        }
        // "0": from the first change (no cursor now gives the unfinished transactions, as at launch; issue 15).
        let first = try store.purchases.updates(after: "0")
        #expect(first.signedTransactions.count == StorePurchases.updatesPageSize)
        #expect(first.hasMore == true)
        let second = try store.purchases.updates(after: first.cursor)
        #expect(second.signedTransactions.count == 7)
        #expect(second.hasMore == false)
        #expect(Set(try ids(first)).isDisjoint(with: try ids(second)))
        #expect(try store.purchases.updates(after: second.cursor).signedTransactions.isEmpty)
        #expect(throws: MockStoreError.self) { try store.purchases.updates(after: "-1") }
    }

    @Test func finishingAndAppPurchasesAreNotUpdates() throws {
        let start = try store.purchases.updates(after: nil)
        let bought = try store.purchases.purchase(PurchaseRequestBody(productId: Self.credit500))
        let id = try store.controls.testTransactions().transactions[0].transactionId
        #expect(bought.result == .success)
        try store.purchases.finish(transactionId: id)
        #expect(try store.purchases.updates(after: start.cursor).signedTransactions.isEmpty)
    }

    @Test func aVersion1DatabaseIsMigrated() throws {
        let path = directory.file("v1.sqlite")
        do {
            let database = try SQLiteDatabase(path: path)
            try database.execute(TransactionStore.schemaSQL)
            try database.execute(
                """
                INSERT INTO transactions (id, serial, original_id, product_id, product_type, quantity, price, currency,
                    storefront, storefront_id, purchase_date, original_purchase_date, transaction_reason, ownership_type,
                    origin, status, version, change_sequence)
                VALUES ('2000000000000007', 7, '2000000000000007', 'p', 'Consumable', 1, 5000, 'GBP', 'GBR', '143444',
                    1, 1, 'PURCHASE', 'PURCHASED', 'app', 'pending', 1, 1);
                """)
            try database.close()
        }
        let store = try TransactionStore(path: path)
        let migrated = try #require(try store.transaction(id: "2000000000000007"))
        #expect(migrated.orderId == "MOCK00000007")
        #expect(migrated.pendingReason == .askToBuy)
        #expect(migrated.refundRequest == nil)
        #expect(try store.notifications().isEmpty)
    }
}

/// The bearer-token rules, one at a time.
@Suite struct ServerAPIAuthenticatorTests {
    let token: ServerAPIToken
    let authenticator: ServerAPIAuthenticator

    init() throws {
        token = try ServerAPIToken()
        authenticator = ServerAPIAuthenticator(
            bundleId: ServerAPIToken.bundleId, keys: [token.keyId: token.key.publicKey])
    }

    func check(_ jwt: String) -> String? {
        do {
            try authenticator.check(authorization: "Bearer " + jwt, now: Date())
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func goodTokensPass() throws {
        #expect(check(try token.make()) == nil)
        #expect(check(try token.make(issuedAgo: 30)) == nil)
        let open = ServerAPIAuthenticator(bundleId: ServerAPIToken.bundleId, keys: [:])
        let stranger = try ServerAPIToken(keyId: "X")
        #expect(throws: Never.self) { try open.check(authorization: "Bearer " + (try stranger.make()), now: Date()) }
    }

    @Test func eachBrokenRuleIsNamed() throws {
        #expect(check(try token.make(aud: "other"))?.contains("aud") == true)
        #expect(check(try token.make(bid: "x.y"))?.contains("bid x.y") == true)
        #expect(check(try token.make(iss: ""))?.contains("iss") == true)
        #expect(check(try token.make(expiresIn: -1))?.contains("expired") == true)
        #expect(check(try token.make(expiresIn: 5_000))?.contains("more than an hour") == true)
        #expect(check(try token.make(issuedAgo: -600))?.contains("iat is in the future") == true)
        #expect(check(try token.make(kid: "NOPE"))?.contains("no --api-key has the kid NOPE") == true)
        #expect(check(try token.make(signedBy: try P256PrivateKey.generate()))?.contains("does not verify") == true)
        #expect(check(try token.make(alg: "HS256"))?.contains("not ES256") == true)
        #expect(throws: ServerAPIAuthenticator.Refusal.self) {
            try authenticator.check(authorization: nil, now: Date())
        }
    }

    /// Claims of the wrong JSON type are refused by name, however the rest of the token holds.
    @Test func claimsOfTheWrongTypeAreNamed() throws {
        let exp = Int(Date().timeIntervalSince1970) + 300
        let good = #""iss":"i","aud":"appstoreconnect-v1","bid":"\#(ServerAPIToken.bundleId)""#
        let cases: [(String, String?)] = [
            ("{\(good),\"exp\":\(exp)}", nil),
            (#"{"iss":"i","aud":["appstoreconnect-v1"],"bid":"\#(ServerAPIToken.bundleId)","exp":\#(exp)}"#, nil),
            ("{\(good),\"exp\":true}", "no numeric exp"),
            ("{\(good),\"exp\":\"\(exp)\"}", "no numeric exp"),
            ("{\(good),\"exp\":\(exp),\"iat\":\"now\"}", "iat is not a number"),
            ("{\(good),\"exp\":\(exp),\"iat\":null}", "iat is not a number"),
            (#"{"iss":7,"aud":"appstoreconnect-v1","bid":"b","exp":\#(exp)}"#, "no iss"),
            (#"{"iss":"i","aud":["appstoreconnect-v1","x"],"bid":"b","exp":\#(exp)}"#, "aud is not appstoreconnect-v1"),
            (#"{"iss":"i","aud":"appstoreconnect-v1","bid":false,"exp":\#(exp)}"#, "no bid"),
            (#"["iss"]"#, "the claims are not a JSON object"),
            (#"{"iss":"i""#, "the claims are not a JSON object"),
        ]
        for (claims, refusal) in cases {
            #expect(check(try token.make(claimsJSON: claims)) == refusal, "\(claims)")
        }
    }
}
