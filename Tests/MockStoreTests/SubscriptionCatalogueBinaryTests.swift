import Foundation
import StoreTestControls
import StoreWire
import TestSupport
import Testing

/// The device API's product list through the real `mockstore` started with the subscription fixture: auto-renewables
/// served as StoreKit's `Product` with `subscription` (`Product.SubscriptionInfo`), in the storefront in force.
@Suite struct SubscriptionCatalogueBinaryTests {
    let directory: TemporaryDirectory
    var data: String { directory.file("data") }

    init() throws {
        directory = try TemporaryDirectory()
    }

    static let ids = [
        "com.example.coins", "com.example.pro.yearly", "com.example.pro.monthly", "com.example.basic.monthly",
        "com.example.news.weekly",
    ]

    func products(_ store: MockStoreHarness) async throws -> [StoreProductInfo] {
        let reply = try await store.get(DeviceAPI.products.target(.init(ids: Self.ids)))
        #expect(reply.status == 200)
        return try reply.decoded(StoreProductsBody.self).products
    }

    @Test func productListServesSubscriptionInfoInTheStorefrontInForce() async throws {
        let store = try await MockStoreHarness.start(dataDirectory: data, catalogue: Repository.subscriptionCatalogue)
        let listed = try await products(store)
        #expect(listed.map(\.id) == Self.ids)
        #expect(
            listed.map(\.type) == [.consumable, .autoRenewable, .autoRenewable, .autoRenewable, .autoRenewable])
        #expect(listed[0].subscription == nil, "a consumable has no subscription info")
        #expect(listed.map(\.isFamilyShareable) == [false, true, false, false, false])
        #expect(listed.map(\.displayPrice) == ["$0.99", "$99.99", "$9.99", "$4.99", "$1.99"])

        let yearly = try #require(listed[1].subscription)
        #expect(yearly.subscriptionGroupID == "21C0FFEE")
        #expect(yearly.groupLevel == 1)
        #expect(yearly.groupDisplayName == "Example Pro")
        #expect(yearly.subscriptionPeriod == StoreSubscriptionPeriod(unit: .year, value: 1))
        #expect(
            yearly.introductoryOffer
                == StoreSubscriptionOffer(
                    id: nil, type: .introductory, price: "0", displayPrice: "$0.00",
                    period: .init(unit: .week, value: 2), periodCount: 1, paymentMode: .freeTrial))
        #expect(
            yearly.promotionalOffers == [
                StoreSubscriptionOffer(
                    id: "pro.yearly.loyalty", type: .promotional, price: "79.99", displayPrice: "$79.99",
                    period: .init(unit: .year, value: 1), periodCount: 1, paymentMode: .payUpFront),
                StoreSubscriptionOffer(
                    id: "pro.yearly.comeback.month", type: .promotional, price: "0", displayPrice: "$0.00",
                    period: .init(unit: .month, value: 1), periodCount: 1, paymentMode: .freeTrial),
            ])
        #expect(
            yearly.winBackOffers == [
                StoreSubscriptionOffer(
                    id: "pro.yearly.winback", type: .winBack, price: "49.99", displayPrice: "$49.99",
                    period: .init(unit: .year, value: 1), periodCount: 1, paymentMode: .payUpFront)
            ])
        let monthly = try #require(listed[2].subscription)
        #expect(monthly.groupLevel == 2)
        #expect(monthly.introductoryOffer?.paymentMode == .payAsYouGo)
        #expect(monthly.introductoryOffer?.periodCount == 3)
        #expect(monthly.introductoryOffer?.displayPrice == "$1.99")
        #expect(listed[3].subscription?.introductoryOffer?.paymentMode == .payUpFront)
        let weekly = try #require(listed[4].subscription)
        #expect(weekly.subscriptionGroupID == "3E0E1CE5")
        #expect(weekly.groupDisplayName == "News")
        #expect(weekly.subscriptionPeriod == StoreSubscriptionPeriod(unit: .week, value: 1))
        #expect(weekly.introductoryOffer == nil && weekly.promotionalOffers.isEmpty && weekly.winBackOffers.isEmpty)

        // The raw body: StoreKit's field names, offer codes not listed, no subscription key on the consumable.
        let raw = try await store.get(
            DeviceAPI.products.target(.init(ids: ["com.example.coins", "com.example.pro.yearly"])))
        let objects = try #require(
            (try JSONSerialization.jsonObject(with: Data(raw.body)) as? [String: Any])?["products"] as? [[String: Any]])
        #expect(objects[0]["subscription"] == nil)
        let info = try #require(objects[1]["subscription"] as? [String: Any])
        #expect(
            Set(info.keys) == [
                "subscriptionGroupID", "subscriptionPeriod", "introductoryOffer", "promotionalOffers", "winBackOffers",
                "groupLevel", "groupDisplayName",
            ])
        #expect(!String(decoding: raw.body, as: UTF8.self).contains("PRO-3MONTHS"))

        // Another storefront: the same prices shown in its currency, offers included; another locale's group name.
        _ = try await store.testStore.setStorefront("GBR")
        _ = try await store.testStore.setLocale("en_GB")
        let british = try await products(store)
        #expect(british.map(\.displayPrice) == ["£0.99", "£99.99", "£9.99", "£4.99", "£1.99"])
        #expect(british.allSatisfy { $0.currency == "GBP" })
        let yearlyGB = try #require(british[1].subscription)
        #expect(yearlyGB.promotionalOffers.map(\.displayPrice) == ["£79.99", "£0.00"])
        #expect(yearlyGB.winBackOffers.map(\.displayPrice) == ["£49.99"])
        #expect(yearlyGB.groupDisplayName == "Example Pro (UK)")
        #expect(british[1].displayName == "Pro, yearly (UK)")
        #expect(try await store.stop() == 0)
    }

    @Test(arguments: ["v1", "v2", "v3", "v4"])
    func olderShapesServeTheSameSubscriptions(shape: String) async throws {
        let store = try await MockStoreHarness.start(
            dataDirectory: data, catalogue: Repository.subscriptionCatalogue(shape))
        let listed = try await products(store)
        #expect(listed.map(\.id) == Self.ids)
        #expect(listed.compactMap { $0.subscription?.groupLevel } == [1, 2, 3, 1])
        #expect(listed[1].subscription?.introductoryOffer?.paymentMode == .freeTrial)
        #expect(listed[1].subscription?.winBackOffers.isEmpty == (shape != "v4"))
        #expect(try await store.stop() == 0)
    }

    @Test func badSubscriptionCatalogueStopsTheStoreWithThePlace() async throws {
        let text = try String(contentsOfFile: Repository.subscriptionCatalogue, encoding: .utf8)
            .replacingOccurrences(
                of: "\"recurringSubscriptionPeriod\" : \"P1M\"", with: "\"recurringSubscriptionPeriod\" : \"P5D\"")
        let path = try directory.write(text, to: "bad.storekit")
        let outcome = try await MockStoreHarness.startInProcess(["--port", "0", "--data", data, "--catalogue", path])
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains("subscriptionGroups[0].subscriptions[1].recurringSubscriptionPeriod"))
        #expect(outcome.stderr.contains("\"P5D\""))
    }
}
