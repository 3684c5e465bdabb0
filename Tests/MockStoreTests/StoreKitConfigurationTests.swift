import Foundation
import Testing

@testable import MockStoreServer
@testable import StoreKitCatalogue

@Suite struct StoreKitConfigurationTests {
    /// Parses `text`, failing the test with the error if it is refused.
    func parse(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> StoreKitConfiguration {
        try StoreKitConfiguration.parse(Data(text.utf8), source: "test.storekit")
    }

    /// The error `text` is refused with (failing the test if it is accepted).
    func refusal(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> CatalogueError? {
        do {
            let configuration = try StoreKitConfiguration.parse(Data(text.utf8), source: "test.storekit")
            Issue.record("accepted a bad file: \(configuration)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }
}

// MARK: The project's catalogue

extension StoreKitConfigurationTests {
    @Test func creditCatalogueSellsOneConsumableInPounds() throws {
        // The owner's note: "Top-up: One pack of £5.00."
        let catalogue = try StoreKitConfiguration.load(contentsOf: Repository.catalogue)
        #expect(catalogue.version == .init(major: 3, minor: 0))
        #expect(catalogue.storefront == Storefront(code: "GBR", currency: "GBP", storefrontId: "143444"))
        #expect(catalogue.locale == "en_GB")
        #expect(catalogue.products.map(\.id) == ["ai.voicedebrief.app.credit.500"])
        #expect(catalogue.products.allSatisfy { $0.type == .consumable })
        #expect(catalogue.products.map(\.priceMilliunits) == [5_000])
        #expect(catalogue.products.map(\.displayPrice) == ["5.00"])
        let five = try #require(catalogue.product(id: "ai.voicedebrief.app.credit.500"))
        #expect(five.referenceName == "Credit, £5")
        #expect(five.localization(for: catalogue.locale)?.displayName == "£5 of credit")
        // The test catalogue of two: the same file and one more product, a second consumable in pounds.
        let two = try StoreKitConfiguration.load(contentsOf: Repository.twoPackCatalogue)
        #expect(two.products.map(\.id) == ["ai.voicedebrief.app.credit.500", "ai.voicedebrief.app.credit.1000"])
        #expect(two.products.allSatisfy { $0.type == .consumable })
        #expect(two.products.map(\.priceMilliunits) == [5_000, 10_000])
        #expect(
            two.product(id: "ai.voicedebrief.app.credit.1000")?.localization(for: "en_GB")?.displayName
                == "£10 of credit")
        #expect(catalogue.settings.askToBuyEnabled == false)
        #expect(catalogue.settings.storeKitErrors.count == 9)
        #expect(catalogue.subscriptionGroupCount == 0)
    }
}

// MARK: Versions

extension StoreKitConfigurationTests {
    @Test func readsVersion1WithoutIdentifierOrNonRenewingList() throws {
        let catalogue = try parse(StoreKitFixtures.version1)
        #expect(catalogue.version == .init(major: 1, minor: 0))
        #expect(catalogue.identifier == nil)
        #expect(catalogue.products.map(\.id) == ["com.example.lifetime", "com.example.monthly"])
        #expect(catalogue.product(id: "com.example.monthly")?.type == .autoRenewable)
        #expect(catalogue.product(id: "com.example.monthly")?.subscription?.groupID == "0F0F0F0F")
        let lifetime = try #require(catalogue.products.first)
        #expect(lifetime.id == "com.example.lifetime")
        #expect(lifetime.type == .nonConsumable)
        #expect(lifetime.priceMilliunits == 19_990)
        #expect(lifetime.familyShareable)
        #expect(catalogue.subscriptionGroupCount == 1)
        #expect(catalogue.settings == StoreKitSettings(), "empty settings")
        #expect(catalogue.storefront.code == "USA", "SKTestSession's default storefront")
        #expect(catalogue.locale == "en_US")
    }

    @Test func readsVersion2WithNonRenewingSubscriptionsAndSettings() throws {
        let catalogue = try parse(StoreKitFixtures.version2)
        #expect(catalogue.version == .init(major: 2, minor: 0))
        #expect(catalogue.identifier == "ABCDEF01")
        #expect(catalogue.products.map(\.id) == ["com.example.coins", "com.example.season"])
        #expect(catalogue.products.map(\.type) == [.consumable, .nonRenewingSubscription])
        #expect(catalogue.products.map(\.priceMilliunits) == [500, 2_990])
        #expect(catalogue.settings.askToBuyEnabled == true)
        #expect(catalogue.settings.failTransactionsEnabled == false)
        #expect(catalogue.locale == "de_DE")
        #expect(catalogue.storefront.currency == "USD")
        #expect(catalogue.products[0].localization(for: catalogue.locale)?.displayName == "Münzen")
        #expect(
            catalogue.products[1].localization(for: catalogue.locale)?.displayName == "Season",
            "no German: the first localization")
    }

    @Test func readsVersion5AndKeepsEverySetting() throws {
        let catalogue = try parse(StoreKitFixtures.version5)
        #expect(catalogue.version == .init(major: 5, minor: 0))
        #expect(
            catalogue.products.map(\.id) == [
                "com.example.consumable", "com.example.lifetime", "com.example.monthly", "com.example.annual",
            ])
        #expect(catalogue.subscriptionGroupCount == 2)
        let monthly = try #require(catalogue.product(id: "com.example.monthly")?.subscription)
        #expect(monthly.introductoryOffer?.paymentMode == .freeTrial)
        #expect(monthly.promotionalOffers.map(\.id) == ["year.discount"])
        let settings = catalogue.settings
        #expect(settings.billingGracePeriodEnabled == true)
        #expect(settings.disableDialogs == true)
        #expect(settings.timeRate == 3)
        #expect(
            settings.storeKitErrors == [
                .init(name: "Purchase", enabled: true, errorIndex: 2, errorType: "generic"),
                .init(name: "Load Products", enabled: false, errorIndex: nil, errorType: nil),
            ])
        let lifetime = try #require(catalogue.product(id: "com.example.lifetime"))
        #expect(lifetime.localizations.isEmpty)
        #expect(lifetime.localization(for: "en_US") == nil)
    }

    @Test(arguments: [1, 2, 3, 4, 5])
    func acceptsEveryMajorVersionFrom1To5(major: Int) throws {
        let catalogue = try parse(
            StoreKitFixtures.minimal(
                products: "[\(StoreKitFixtures.product())]",
                version: "\(major).2"))
        #expect(catalogue.version == .init(major: major, minor: 2))
        #expect(catalogue.products.count == 1)
    }
}

// MARK: Localizations and prices

extension StoreKitConfigurationTests {
    @Test func localizationPrefersExactThenLanguageThenFirst() {
        let product = CatalogueProduct(
            id: "p", referenceName: "p", type: .consumable, displayPrice: "1", priceMilliunits: 1_000,
            localizations: [
                .init(locale: "fr_FR", displayName: "Français", description: ""),
                .init(locale: "en_US", displayName: "American", description: ""),
                .init(locale: "en_GB", displayName: "British", description: ""),
            ])
        #expect(product.localization(for: "en_GB")?.displayName == "British")
        #expect(product.localization(for: "en-gb")?.displayName == "British", "case and separator do not matter")
        #expect(product.localization(for: "en_AU")?.displayName == "American", "same language, first of them")
        #expect(product.localization(for: "de_DE")?.displayName == "Français", "no match: the first")
    }

    @Test(arguments: [
        ("5.00", Int64(5_000)), ("10.00", 10_000), ("0.5", 500), ("0.99", 990), ("199.99", 199_990), ("500", 500_000),
        ("1.235", 1_235), ("2.5000", 2_500), ("0", 0), ("007.10", 7_100),
    ])
    func pricesBecomeMilliunits(price: String, milliunits: Int64) throws {
        #expect(try StoreKitFileReader.milliunits(price) == milliunits)
    }

    @Test(arguments: ["", "abc", "5,00", "-1.00", "1.", ".5", "1.2.3", "1e3", " 5.00", "1.0001", "9999999999999"])
    func badPricesAreRefused(price: String) {
        #expect(throws: StoreKitFileReader.PriceProblem.self) { try StoreKitFileReader.milliunits(price) }
    }
}

// MARK: Bad files

extension StoreKitConfigurationTests {
    @Test func missingFileNamesTheFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("absent.storekit")
        let error = #expect(throws: CatalogueError.self) { try StoreKitConfiguration.load(contentsOf: path) }
        #expect(error?.file == path)
        #expect(error?.problem.contains("no such file") == true)
        #expect(error?.description.hasPrefix(path + ": ") == true)
    }

    @Test func emptyFileIsRefused() {
        #expect(refusal("")?.problem.contains("empty") == true)
    }

    @Test func brokenJSONSaysWhere() {
        let error = refusal("{\n  \"products\": [\n    {\"productID\": x}\n  ]\n}")
        #expect(error?.location == "line 3, column 19", "where the x is")
        #expect(error?.problem.contains("not valid JSON") == true)
    }

    @Test func topLevelMustBeAnObject() {
        #expect(refusal("[1, 2]")?.problem.contains("not a JSON object") == true)
    }

    @Test func versionIsRequired() {
        let error = refusal(#"{"products": []}"#)
        #expect(error?.problem == "missing key \"version\"")
        #expect(error?.location == "")
    }

    @Test(arguments: ["0.9", "6.0"])
    func unsupportedVersionsAreRefused(version: String) {
        let error = refusal(StoreKitFixtures.minimal(version: version))
        #expect(error?.location == "version")
        #expect(error?.problem.contains("unsupported version \(version)") == true)
    }

    @Test func missingProductIDNamesTheProduct() {
        let text = StoreKitFixtures.minimal(
            products: """
                [\(StoreKitFixtures.product()), {"type": "Consumable", "displayPrice": "1.00"}]
                """)
        let error = refusal(text)
        #expect(error?.location == "products[1]")
        #expect(error?.problem == "missing key \"productID\"")
        #expect(error?.description == "test.storekit: products[1]: missing key \"productID\"")
    }

    @Test func wrongTypeNamesTheField() {
        let text = StoreKitFixtures.minimal(
            products: """
                [{"productID": 42, "type": "Consumable", "displayPrice": "1.00"}]
                """)
        let error = refusal(text)
        #expect(error?.location == "products[0].productID")
        #expect(error?.problem.hasPrefix("expected a string") == true)
    }

    @Test func missingLocaleInALocalizationNamesIt() {
        let text = StoreKitFixtures.minimal(
            products: "[\(StoreKitFixtures.product(localizations: #"[{"displayName": "x"}]"#))]")
        let error = refusal(text)
        #expect(error?.location == "products[0].localizations[0]")
        #expect(error?.problem == "missing key \"locale\"")
    }

    @Test func subscriptionTypeInProductsIsRefused() {
        let error = refusal(
            StoreKitFixtures.minimal(products: "[\(StoreKitFixtures.product(type: "RecurringSubscription"))]"))
        #expect(error?.location == "products[0].type")
        #expect(error?.problem.contains("\"Consumable\" or \"NonConsumable\"") == true)
    }

    @Test func consumableInNonRenewingListIsRefused() {
        let text = """
            {"nonRenewingSubscriptions": [\(StoreKitFixtures.product(type: "Consumable"))],
             "version": {"major": 3, "minor": 0}}
            """
        let error = refusal(text)
        #expect(error?.location == "nonRenewingSubscriptions[0].type")
    }

    @Test func badPriceNamesTheProduct() {
        let error = refusal(StoreKitFixtures.minimal(products: "[\(StoreKitFixtures.product(price: "5.0001"))]"))
        #expect(error?.location == "products[0].displayPrice")
        #expect(error?.problem.contains("more than three decimal places") == true)
    }

    @Test func duplicateProductIDIsRefused() {
        let text = """
            {"products": [\(StoreKitFixtures.product(id: "a")), \(StoreKitFixtures.product(id: "b"))],
             "nonRenewingSubscriptions": [\(StoreKitFixtures.product(id: "a", type: "NonRenewingSubscription"))],
             "version": {"major": 3, "minor": 0}}
            """
        let error = refusal(text)
        #expect(error?.location == "nonRenewingSubscriptions[0]")
        #expect(error?.problem == "productID \"a\" is already used by products[0]")
    }

    @Test func emptyProductIDIsRefused() {
        let error = refusal(StoreKitFixtures.minimal(products: "[\(StoreKitFixtures.product(id: ""))]"))
        #expect(error?.location == "products[0].productID")
    }

    @Test func unknownStorefrontIsRefusedRatherThanGivenACurrency() {
        let error = refusal(StoreKitFixtures.minimal(settings: #"{"_storefront": "XYZ"}"#))
        #expect(error?.location == "settings._storefront")
        #expect(error?.problem.contains("\"XYZ\" has no currency") == true)
    }

    @Test func settingOfTheWrongTypeNamesTheKey() {
        let error = refusal(StoreKitFixtures.minimal(settings: #"{"_askToBuyEnabled": "yes"}"#))
        #expect(error?.location == "settings._askToBuyEnabled")
    }

    @Test func loadReadsTheFileItNames() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(StoreKitFixtures.version2, to: "v2.storekit")
        #expect(try StoreKitConfiguration.load(contentsOf: path).identifier == "ABCDEF01")
        let broken = try directory.write("{", to: "broken.storekit")
        let error = #expect(throws: CatalogueError.self) { try StoreKitConfiguration.load(contentsOf: broken) }
        #expect(error?.file == broken)
    }
}

// MARK: Storefronts

extension StoreKitConfigurationTests {
    @Test func storefrontsMapToCurrencies() {
        #expect(Storefront.named("GBR")?.currency == "GBP")
        #expect(Storefront.named("usa")?.currency == "USD")
        #expect(Storefront.named("USA")?.storefrontId == "143441")
        #expect(Storefront.named("JPN")?.currency == "JPY")
        #expect(Storefront.named("XYZ") == nil)
        #expect(Set(Storefront.known.map(\.code)).count == Storefront.known.count, "no code twice")
        #expect(Set(Storefront.known.map(\.storefrontId)).count == Storefront.known.count, "no id twice")
    }
}
