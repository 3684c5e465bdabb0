import Clocks
import Foundation
import StoreTestControls
import StoreWire
import Testing

@testable import MockStoreHTTP
@testable import MockStoreServer
@testable import StoreKitCatalogue

/// The kept products body of a catalogue with subscriptions is the fresh encoding of ``MockStore/products(ids:)``,
/// in every storefront and locale.
@Suite struct SubscriptionProductsCacheTests {
    static let ids = ["com.example.pro.yearly", "com.example.coins", "com.example.news.weekly"]

    let directory: TemporaryDirectory
    let router: MockStoreRouter
    var store: MockStore { router.store }

    init() throws {
        directory = try TemporaryDirectory()
        let store = MockStore(
            configuration: .init(
                catalogue: try StoreKitConfiguration.load(contentsOf: Repository.subscriptionCatalogue),
                bundleId: "ai.voicedebrief.app", signer: JWSTransactionSigner.unsigned, clock: ManualClock(fixedDate)),
            database: try TransactionStore(path: directory.file("store.sqlite")))
        router = MockStoreRouter(store: store)
    }

    func answer() -> HTTPResponse {
        router.respond(
            to: HTTPRequest(
                method: "GET", path: DeviceAPI.products.path(), query: [.init("ids", Self.ids.joined(separator: ","))]))
    }

    @Test func keptBodyIsTheFreshOneInEveryStorefrontAndLocale() throws {
        for (storefront, locale, symbol) in [("USA", "en_US", "$"), ("GBR", "en_GB", "£"), ("JPN", "en_US", "¥")] {
            let settings = #"{"storefront": "\#(storefront)", "locale": "\#(locale)"}"#
            let set = router.respond(
                to: HTTPRequest(method: "POST", path: TestControls.updateSettings.path(), body: Array(settings.utf8)))
            #expect(set.status == 200)
            let first = answer()
            let kept = answer()
            #expect(first.status == 200)
            #expect(kept.body == first.body)
            let fresh = try store.catalogue.products(ids: Self.ids)
            #expect(try HTTPResponse.encode(StoreProductsBody(products: fresh)) == first.body)
            #expect(fresh.map(\.id) == Self.ids)
            let yearly = try #require(fresh.first?.subscription)
            #expect(yearly.promotionalOffers.allSatisfy { $0.displayPrice.contains(symbol) })
            #expect(yearly.groupDisplayName == (locale == "en_GB" ? "Example Pro (UK)" : "Example Pro"))
            #expect(fresh[1].subscription == nil)
        }
    }

    @Test func groupLocalizationsAreLocalesTheCatalogueServes() throws {
        let catalogue = try StoreKitConfiguration.load(contentsOf: Repository.subscriptionCatalogue)
        #expect(catalogue.servedLocales.contains("en_GB"))
        #expect(
            catalogue.subscriptions(inGroup: "21C0FFEE").map(\.id) == [
                "com.example.pro.yearly", "com.example.pro.monthly", "com.example.basic.monthly",
            ])
        #expect(catalogue.subscriptions(inGroup: "nope").isEmpty)
    }
}
