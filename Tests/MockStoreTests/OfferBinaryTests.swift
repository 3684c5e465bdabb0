import Foundation
import FoundationNetworking
import Signing
import StoreTestControls
import StoreWire
import Testing

/// Offers redeemed in purchases through the real `mockstore` binary: promotional offers, offer codes and win-back
/// offers as purchase options, each OFFER_REDEEMED with its subtype and Apple's offer fields.
@Suite struct OfferBinaryTests {
    let base: SubscriptionBinaryTests
    static let pro = SubscriptionBinaryTests.proMonthly

    init() throws { base = try SubscriptionBinaryTests() }

    /// A purchase redeeming offer `id` of `type`; promotional offers signed with a key registered with `store`
    /// (the device API needs the developer's signature for them).
    func buy(_ store: MockStoreHarness, _ product: String, _ type: String, _ id: String) async throws
        -> MockStoreHarness.Response
    {
        if type == "promotional" {
            let signer = try PromotionalOfferSigner()
            try await signer.register(with: store, in: base.directory)
            return try await store.purchase(product, offer: try signer.option(product: product, offer: id))
        }
        return try await store.post(
            DeviceAPI.purchase.path(),
            json: #"{"productId": "\#(product)", "offer": {"type": "\#(type)", "id": "\#(id)"}}"#)
    }

    func last(_ store: MockStoreHarness, root: Certificate) async throws -> (
        NotificationPayload, SignedTransactionPayload, RenewalInfoPayload
    ) {
        let told = try await #require(try base.notifications(store, root: root).last)
        return (told.payload, told.transaction, told.renewal)
    }

    @Test func promotionalOffersOfferCodesAndWinBackOffersAreRedeemedWithTheirSubtypes() async throws {
        let store = try await base.start()
        let root = try await base.root(store)
        let promo = try await buy(store, Self.pro, "promotional", "pro.monthly.half")
        #expect(promo.status == 200)
        var (payload, transaction, renewal) = try await last(store, root: root)
        #expect(payload.notificationType == .offerRedeemed && payload.subtype == .initialBuy)
        #expect(transaction.offerType == .promotionalOffer && transaction.offerIdentifier == "pro.monthly.half")
        #expect(transaction.offerDiscountType == .payAsYouGo && transaction.offerPeriod == "P2M")
        #expect(transaction.price == 4_990)
        #expect(
            renewal.offerType == .promotionalOffer && renewal.renewalPrice == 4_990,
            "the second period is under the offer too")

        #expect(try await buy(store, Self.pro, "winBack", "pro.monthly.winback.free").status == 400, "not lapsed")
        #expect(try await buy(store, Self.pro, "promotional", "nope").status == 400)
        #expect(try await buy(store, Self.pro, "offerCode", "PRO-MONTH-99").status == 200)
        (payload, transaction, renewal) = try await last(store, root: root)
        #expect(payload.notificationType == .offerRedeemed && payload.subtype == nil, "an active subscriber")
        #expect(
            renewal.offerType == .offerCode && renewal.offerIdentifier == "PRO-MONTH-99" && renewal.renewalPrice == 990)

        _ = try await store.testStore.expire(Self.pro)
        #expect(try await buy(store, Self.pro, "winBack", "pro.monthly.winback.free").status == 200)
        (payload, transaction, renewal) = try await last(store, root: root)
        #expect(payload.notificationType == .offerRedeemed && payload.subtype == .resubscribe)
        #expect(
            transaction.offerType == .winBackOffer && transaction.offerDiscountType == .freeTrial
                && transaction.price == 0)
        #expect(try await store.stop() == 0)
    }

    @Test func anOfferOnAnotherProductOfTheGroupIsAnUpgradeOrADowngrade() async throws {
        let store = try await base.start()
        let root = try await base.root(store)
        _ = try await base.buy(store, SubscriptionBinaryTests.basic, root: root)
        #expect(try await buy(store, Self.pro, "promotional", "pro.monthly.half").status == 200)
        let (payload, transaction, _) = try await last(store, root: root)
        #expect(payload.notificationType == .offerRedeemed && payload.subtype == .upgrade)
        #expect(
            transaction.productId == Self.pro && transaction.offerType == .promotionalOffer
                && transaction.price == 4_990)
        #expect(try await buy(store, SubscriptionBinaryTests.basic, "promotional", "x").status == 400)
        #expect(try await store.stop() == 0)

        let other = try SubscriptionBinaryTests()
        let second = try await other.start()
        let secondRoot = try await other.root(second)
        _ = try await other.buy(second, SubscriptionBinaryTests.proYearly, root: secondRoot)
        #expect(try await buy(second, Self.pro, "promotional", "pro.monthly.half").status == 200)
        let told = try await #require(try other.notifications(second, root: secondRoot).last)
        #expect(told.payload.notificationType == .offerRedeemed && told.payload.subtype == .downgrade)
        #expect(told.renewal.autoRenewProductId == Self.pro && told.renewal.offerType == .promotionalOffer)
        #expect(told.renewal.offerIdentifier == "pro.monthly.half" && told.renewal.renewalPrice == 4_990)
        #expect(try await second.stop() == 0)
    }
}
