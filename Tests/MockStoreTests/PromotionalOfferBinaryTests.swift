import Foundation
import FoundationNetworking
import Signing
import StoreTestControls
import StoreWire
import Testing

/// Promotional offer signatures, offer code eligibility and `control buy --offer` through the real `mockstore`
/// binary: what the App Store accepts and refuses.
@Suite struct PromotionalOfferBinaryTests {
    let base: SubscriptionBinaryTests
    static let pro = SubscriptionBinaryTests.proMonthly
    static let yearly = SubscriptionBinaryTests.proYearly
    static let half = "pro.monthly.half"
    static let hour: Int64 = 3_600_000

    init() throws { base = try SubscriptionBinaryTests() }

    static func message(_ response: MockStoreHarness.Response) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    static var now: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    @Test func aSignedPromotionalOfferIsAcceptedOnceAndEveryBadSignatureIsRefused() async throws {
        let store = try await base.start()
        let root = try await base.root(store)
        let signer = try PromotionalOfferSigner()
        let early = try await store.purchase(Self.pro, offer: try signer.option(product: Self.pro, offer: Self.half))
        #expect(early.status == 400 && Self.message(early).contains("no subscription offer key"), "not registered")
        try await signer.register(with: store, in: base.directory)

        let bare = try await store.purchase(Self.pro, offer: PurchaseOfferOption(type: .promotional, id: Self.half))
        #expect(bare.status == 400 && Self.message(bare).contains("missingOfferParameters"))
        let refused: [(String, PurchaseOfferOption)] = [
            ("another app", try signer.option(product: Self.pro, offer: Self.half, bundleId: "com.other.app")),
            (
                "25 hours old",
                try signer.option(product: Self.pro, offer: Self.half, timestamp: Self.now - 25 * Self.hour)
            ),
            ("an hour ahead", try signer.option(product: Self.pro, offer: Self.half, timestamp: Self.now + Self.hour)),
            ("another key", try PromotionalOfferSigner().option(product: Self.pro, offer: Self.half)),
        ]
        for (why, option) in refused {
            let response = try await store.purchase(Self.pro, offer: option)
            #expect(response.status == 400 && Self.message(response).contains("invalidOfferSignature"), "\(why)")
        }
        var signedForAnother = try signer.option(product: Self.yearly, offer: "pro.yearly.loyalty")
        signedForAnother.id = Self.half
        #expect(try await store.purchase(Self.pro, offer: signedForAnother).status == 400, "another offer's")
        let token = UUID().uuidString.lowercased()
        let withToken = try signer.option(product: Self.pro, offer: Self.half, appAccountToken: token)
        #expect(try await store.purchase(Self.pro, offer: withToken).status == 400, "signed with a token, sent without")
        var uppercaseNonce = withToken
        uppercaseNonce.nonce = withToken.nonce?.uppercased()
        let accepted = try await store.purchase(Self.pro, offer: uppercaseNonce, appAccountToken: token.uppercased())
        #expect(accepted.status == 200, "the nonce and token are signed lowercased: \(Self.message(accepted))")
        let told = try await #require(try base.notifications(store, root: root).last)
        #expect(told.payload.notificationType == .offerRedeemed && told.payload.subtype == .initialBuy)
        #expect(told.transaction.offerType == .promotionalOffer && told.transaction.offerIdentifier == Self.half)
        let again = try await store.purchase(Self.pro, offer: withToken, appAccountToken: token)
        #expect(again.status == 400 && Self.message(again).contains("nonce"), "a nonce is good for one purchase")
        #expect(try await store.stop() == 0)
    }

    @Test func theJWSFormIsCheckedForItsKeyAudienceProductOfferTimeAndTransaction() async throws {
        let store = try await base.start()
        let root = try await base.root(store)
        let signer = try PromotionalOfferSigner(keyID: "JWSKEY")
        try await signer.register(with: store, in: base.directory)
        let refused: [(String, PurchaseOfferOption)] = [
            ("audience", try signer.jwsOption(product: Self.pro, offer: Self.half, audience: "advanced-commerce-api")),
            ("product", try signer.jwsOption(product: Self.yearly, offer: Self.half)),
            ("stale", try signer.jwsOption(product: Self.pro, offer: Self.half, issuedAt: Date() - 90_000)),
            (
                "transaction",
                try signer.jwsOption(product: Self.pro, offer: Self.half, transactionId: "2999999999999999")
            ),
            ("key", try PromotionalOfferSigner(keyID: "JWSKEY").jwsOption(product: Self.pro, offer: Self.half)),
        ]
        var otherOffer = try signer.jwsOption(product: Self.pro, offer: "pro.yearly.loyalty")
        otherOffer.id = Self.half
        for (why, option) in refused + [("offer", otherOffer)] {
            let response = try await store.purchase(Self.pro, offer: option)
            #expect(response.status == 400 && Self.message(response).contains("invalidOfferSignature"), "\(why)")
        }
        let first = try await base.buy(store, SubscriptionBinaryTests.basic, root: root)
        let good = try signer.jwsOption(product: Self.pro, offer: Self.half, transactionId: first.transactionId)
        let accepted = try await store.purchase(Self.pro, offer: good)
        #expect(accepted.status == 200, "\(Self.message(accepted))")
        let told = try await #require(try base.notifications(store, root: root).last)
        #expect(told.payload.notificationType == .offerRedeemed && told.payload.subtype == .upgrade)
        #expect(try await store.purchase(Self.pro, offer: good).status == 400, "used once")
        #expect(try await store.stop() == 0)
    }

    /// On the shared store, as a customer of its own: eligibility is the customer's.
    @Test func anOfferCodeIsRedeemedOnlyByTheCustomersItsEligibilityNames() async throws {
        try await MockStoreHarness.withShared(catalogue: SubscriptionBinaryTests.catalogue) { store in
            let code = PurchaseOfferOption(type: .offerCode, id: "PRO-3MONTHS")  // new and expired customers
            #expect(try await store.purchase(Self.yearly, offer: code).status == 200, "a new customer")
            let existing = try await store.purchase(Self.yearly, offer: code)
            #expect(existing.status == 400 && Self.message(existing).contains("ineligibleForOffer"), "subscribed now")
            let outside = try await refusal {
                try await store.testStore.buy(Self.yearly, offer: .offerCode("PRO-3MONTHS"))
            }
            #expect(outside?.message.contains("ineligibleForOffer") == true, "the control too")
            _ = try await store.testStore.expire(Self.yearly)
            #expect(try await store.purchase(Self.yearly, offer: code).status == 200, "a lapsed customer")
        }
    }

    @Test func controlBuyRedeemsAnOfferWithoutASignatureAsSKTestSessionDoes() async throws {
        let store = try await base.start()
        let root = try await base.root(store)
        let bought = try await store.testStore.buy(Self.pro, offer: .promotional("\(Self.half)"))
        #expect(bought.transaction.productId == Self.pro)
        let told = try await #require(try base.notifications(store, root: root).last)
        #expect(told.payload.notificationType == .offerRedeemed && told.transaction.offerType == .promotionalOffer)
        await #expect(
            try refusal { try await store.testStore.buy(Self.pro, offer: .promotional("nope")) } != nil, "no such offer"
        )
        let coins = try await refusal {
            try await store.testStore.buy("com.example.coins", offer: .promotional(Self.half))
        }
        #expect(coins?.message.contains("only those have offers") == true, "a consumable has no offers")
        let device = try await store.purchase(
            "com.example.coins", offer: PurchaseOfferOption(type: .offerCode, id: "X"))
        #expect(device.status == 400, "nor through the device API")
        let winBack = try await refusal {
            try await store.testStore.buy(Self.pro, offer: .winBack("pro.monthly.winback.free"))
        }
        #expect(winBack?.message.contains("lapsed") == true, "win-back: not lapsed")
        await #expect(
            try base.notifications(store, root: root).last?.renewal.eligibleWinBackOfferIds == nil, "in force")
        _ = try await store.testStore.expire(Self.pro)
        let expired = try await #require(try base.notifications(store, root: root).last)
        #expect(expired.payload.notificationType == .expired)
        #expect(expired.renewal.eligibleWinBackOfferIds == ["pro.monthly.winback.free"], "lapsed: the product's")
        let won = try await refusal {
            try await store.testStore.buy(Self.pro, offer: .winBack("pro.monthly.winback.free"))
        }
        #expect(won == nil, "lapsed: eligible")
        for bad in ["half", "gift:x", "promotional:", ":x"] {
            await #expect(try store.control("buy", Self.pro, "--offer", bad).status == 64, "\(bad)")
        }
        // A file that is not there is a failure, exit 1 (issue 35), not a command-line mistake.
        await #expect(try store.control("offer-key", "K", base.directory.file("missing.p8")).status == 1)
        await #expect(try store.testStore.offerKeys().isEmpty)
        // The command line reads a .p8 as App Store Connect gives it and registers its public part (every other
        // test registers the public part through the test library).
        let p8 = base.directory.file("offer-key-CLIKEY.p8")
        try Data(try P256PrivateKey.generate().pemRepresentation.utf8).write(to: URL(fileURLWithPath: p8))
        await #expect(try store.control("offer-key", "CLIKEY", p8).status == 0)
        await #expect(try store.testStore.offerKeys() == ["CLIKEY"])
        #expect(try await store.stop() == 0)
    }
}
