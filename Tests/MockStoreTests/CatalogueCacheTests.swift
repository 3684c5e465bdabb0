import Foundation
import StoreTestControls
import StoreWire
import Synchronization
import Testing

@testable import MockStoreHTTP
@testable import MockStoreServer
@testable import StoreKitCatalogue

/// The products answer is kept encoded, and the settings it is made with are kept out of the database: both must
/// always give what a fresh encoding from the database would, whatever the test controls change.
@Suite struct CatalogueCacheTests {
    static let ids = ["ai.voicedebrief.app.credit.500", "ai.voicedebrief.app.credit.1000"]

    let directory: TemporaryDirectory
    let router: MockStoreRouter
    var store: MockStore { router.store }

    init() throws {
        directory = try TemporaryDirectory()
        router = MockStoreRouter(store: try MockStore.fresh(in: directory, signer: JWSTransactionSigner.unsigned))
    }

    func products() -> HTTPResponse {
        router.respond(
            to: HTTPRequest(
                method: "GET", path: DeviceAPI.products.path(), query: [.init("ids", Self.ids.joined(separator: ","))]))
    }

    func control(_ method: String, _ path: String, _ body: String = "") -> HTTPResponse {
        router.respond(to: HTTPRequest(method: method, path: path, body: Array(body.utf8)))
    }

    /// The body encoded now, from the database, without any cache.
    func freshBody() throws -> [UInt8] {
        store.catalogue.productSettingsCache.invalidate()
        return try HTTPResponse.encode(StoreProductsBody(products: store.catalogue.products(ids: Self.ids)))
    }

    /// Checks that the products answer is a 200 whose body is the fresh encoding; returns the body.
    @discardableResult
    func expectFresh(sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        let response = products()
        #expect(response.status == 200, sourceLocation: sourceLocation)
        #expect(response.header("Content-Type") == "application/json", sourceLocation: sourceLocation)
        let fresh = try freshBody()
        #expect(response.body == fresh, "the kept body is not the fresh one", sourceLocation: sourceLocation)
        return response.body
    }
}

extension CatalogueCacheTests {
    @Test func theKeptBodyIsTheFreshEncodingAndFollowsStorefrontAndLocale() throws {
        let british = try expectFresh()
        #expect(products().body == british)
        #expect(store.catalogue.productsBodies.count == 1, "the second answer came from the cache")

        #expect(control("POST", TestControls.updateSettings.path(), #"{"storefront": "USA"}"#).status == 200)
        let american = try expectFresh()
        #expect(american != british)
        #expect(
            try JSONDecoder().decode(StoreProductsBody.self, from: Data(american)).products.map(\.currency)
                == ["USD", "USD"])

        // A locale the catalogue can serve (its products are localized in en_GB): en_US formats prices otherwise.
        #expect(control("POST", TestControls.updateSettings.path(), #"{"locale": "en_US"}"#).status == 200)
        let usEnglish = try expectFresh()
        #expect(usEnglish != american)

        #expect(control("POST", TestControls.reset.path()).status == 200)
        #expect(try expectFresh() == british)
    }

    @Test func simulatedLoadProductsFailuresAreSeenThoughTheSettingsAreKept() throws {
        try expectFresh()
        #expect(store.catalogue.productSettingsCache.settings != nil, "the settings were kept")

        let set = control("POST", TestControls.setFailure.path(), #"{"api": "loadProducts", "error": "networkError"}"#)
        #expect(set.status == 200)
        for _ in 0..<2 {
            let failed = products()
            #expect(failed.status == 503)
            #expect(failed.header("Content-Type") == "application/json")
        }
        #expect(control("DELETE", TestControls.clearFailure.path(.init(api: .loadProducts))).status == 200)
        try expectFresh()

        let once = control(
            "POST", TestControls.setFailure.path(), #"{"api": "loadProducts", "error": "networkError", "once": true}"#)
        #expect(once.status == 200)
        #expect(products().status == 503)
        try expectFresh()
    }

    @Test func aSettingInABatchThatIsRolledBackIsNotKept() throws {
        let british = try expectFresh()
        #expect(throws: MockStoreError.self) {
            try store.withDatabase { database in
                try database.setSetting(MockStore.SettingKey.storefront, to: "USA")
                // Makes the COMMIT fail (a deferred foreign key), so the storefront change is rolled back.
                _ = try database.logChange(.finished, transactionId: "1", date: 0)
            }
        }
        #expect(try expectFresh() == british)
    }

    @Test func aValueReadBeforeAnInvalidationIsNotKept() {
        let cache = ProductSettingsCache()
        let settings = ProductSettingsCache.Settings(
            storefront: Storefront(code: "GBR", currency: "GBP", storefrontId: "143444"), locale: "en_GB")
        let generation = cache.generation
        cache.invalidate()
        cache.keep(settings, readAt: generation)
        #expect(cache.settings == nil)
        cache.keep(settings, readAt: cache.generation)
        #expect(cache.settings == settings)
        cache.invalidate()
        #expect(cache.settings == nil)
    }

    @Test func requestsWithHugeIdListsAreAnsweredButNotKept() throws {
        let many = (0..<1_000).map { "id\($0)" }.joined(separator: ",")
        let response = router.respond(
            to: HTTPRequest(method: "GET", path: DeviceAPI.products.path(), query: [.init("ids", many)]))
        #expect(response.status == 200)
        #expect(store.catalogue.productsBodies.count == 0)
    }
}
