import Foundation
import Testing

@testable import StoreKitCatalogue

/// Subscription groups read from `.storekit` files of every shape, and the files refused.
@Suite struct StoreKitSubscriptionTests {
    func refusal(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> CatalogueError? {
        StoreKitConfigurationTests().refusal(text, sourceLocation: sourceLocation)
    }

    /// A file of one group holding `subscriptions` (JSON objects), and `products`.
    func file(subscriptions: [String], products: String = "[]", version: String = "4.0") -> String {
        let parts = version.split(separator: ".")
        return """
            {"products": \(products), "settings": {},
             "subscriptionGroups": [{"id": "G1", "name": "Group", "localizations": [],
                                     "subscriptions": [\(subscriptions.joined(separator: ", "))]}],
             "version": {"major": \(parts[0]), "minor": \(parts[1])}}
            """
    }

    /// One subscription entry; `extra` is spliced in as more keys.
    func subscription(
        id: String = "com.example.sub", level: Int = 1, period: String = "P1M", price: String = "4.99",
        extra: String = ""
    ) -> String {
        """
        {"productID": "\(id)", "type": "RecurringSubscription", "displayPrice": "\(price)", "groupNumber": \(level),
         "recurringSubscriptionPeriod": "\(period)", "referenceName": "ref \(id)", "subscriptionGroupID": "G1",
         "localizations": []\(extra.isEmpty ? "" : ", " + extra)}
        """
    }
}

// MARK: The fixture in every shape

extension StoreKitSubscriptionTests {
    @Test(arguments: ["", "v4", "v3", "v2", "v1"])
    func readsEveryShapeOfTheFixture(shape: String) throws {
        let path = shape.isEmpty ? Repository.subscriptionCatalogue : Repository.subscriptionCatalogue(shape)
        let catalogue = try StoreKitConfiguration.load(contentsOf: path)
        #expect(
            catalogue.products.map(\.id) == [
                "com.example.coins", "com.example.pro.yearly", "com.example.pro.monthly", "com.example.basic.monthly",
                "com.example.news.weekly",
            ])
        #expect(catalogue.product(id: "com.example.coins")?.type == .consumable)
        #expect(catalogue.product(id: "com.example.coins")?.subscription == nil)
        #expect(
            catalogue.subscriptionGroups == [
                SubscriptionGroup(
                    id: "21C0FFEE", name: "Pro",
                    localizations: [
                        .init(locale: "en_US", displayName: "Example Pro", description: "Everything Example offers"),
                        .init(
                            locale: "en_GB", displayName: "Example Pro (UK)", description: "Everything Example offers"),
                    ],
                    productIDs: ["com.example.pro.yearly", "com.example.pro.monthly", "com.example.basic.monthly"]),
                SubscriptionGroup(id: "3E0E1CE5", name: "News", productIDs: ["com.example.news.weekly"]),
            ])
        #expect(catalogue.subscriptionGroupCount == 2)
        let subscriptions = catalogue.products.filter { $0.type == .autoRenewable }
        #expect(subscriptions.count == 4)
        #expect(subscriptions.allSatisfy { $0.subscription != nil })
        #expect(subscriptions.map { $0.subscription?.groupLevel } == [1, 2, 3, 1])
        #expect(subscriptions.map { $0.subscription?.period.description } == ["P1Y", "P1M", "P1M", "P1W"])
        #expect(subscriptions.map(\.familyShareable) == [true, false, false, false])
        #expect(subscriptions.map(\.priceMilliunits) == [99_990, 9_990, 4_990, 1_990])

        let yearly = try #require(catalogue.product(id: "com.example.pro.yearly")?.subscription)
        #expect(yearly.groupID == "21C0FFEE")
        #expect(
            yearly.introductoryOffer
                == SubscriptionOffer(
                    kind: .introductory, paymentMode: .freeTrial, period: .init(value: 2, unit: .week),
                    periodCount: 1, displayPrice: "0", priceMilliunits: 0))
        #expect(yearly.promotionalOffers.map(\.id) == ["pro.yearly.loyalty", "pro.yearly.comeback.month"])
        #expect(yearly.promotionalOffers.map(\.paymentMode) == [.payUpFront, .freeTrial])
        #expect(yearly.promotionalOffers.first?.priceMilliunits == 79_990)
        #expect(yearly.offerCodes.map(\.id) == ["PRO-3MONTHS"])
        #expect(yearly.offerCodes.first?.period == .init(value: 3, unit: .month))
        #expect(yearly.offer(kind: .offerCode, id: "PRO-3MONTHS")?.kind == .offerCode)
        #expect(yearly.offerCodes.first?.codeEligibility == [.new, .expired])
        #expect(yearly.offerCodes.first?.isStackable == (shape != "v1"), "1.x files write no isStackable")
        #expect(yearly.promotionalOffers.first?.referenceName == "Loyal customers, first year")
        #expect(yearly.promotionalOffers.first?.codeEligibility == [], "only offer codes have an eligibility")

        let monthly = try #require(catalogue.product(id: "com.example.pro.monthly")?.subscription)
        #expect(
            monthly.introductoryOffer
                == SubscriptionOffer(
                    kind: .introductory, paymentMode: .payAsYouGo, period: .init(value: 1, unit: .month),
                    periodCount: 3, displayPrice: "1.99", priceMilliunits: 1_990))
        #expect(monthly.promotionalOffers.map(\.periodCount) == [2])
        #expect(monthly.offerCodes.map(\.paymentMode) == [.payAsYouGo])
        #expect(monthly.offerCodes.first?.codeEligibility == Set(OfferCodeEligibility.allCases))
        #expect(monthly.introductoryOffer?.duration == .init(value: 3, unit: .month), "P1M × 3")
        #expect(monthly.introductoryOffer?.paymentMode.appleDiscountType == .payAsYouGo)
        let basic = try #require(catalogue.product(id: "com.example.basic.monthly")?.subscription)
        #expect(basic.introductoryOffer?.paymentMode == .payUpFront)
        #expect(basic.introductoryOffer?.period == .init(value: 3, unit: .month))
        #expect(basic.introductoryOffer?.priceMilliunits == 2_990)
        let weekly = try #require(catalogue.product(id: "com.example.news.weekly")?.subscription)
        #expect(weekly.introductoryOffer == nil)
        #expect(weekly.promotionalOffers.isEmpty && weekly.offerCodes.isEmpty && weekly.winBackOffers.isEmpty)

        let hasWinBack = shape.isEmpty || shape == "v4"  // win-back offers came with 4.0
        #expect(yearly.winBackOffers.map(\.id) == (hasWinBack ? ["pro.yearly.winback"] : []))
        #expect(monthly.winBackOffers.map(\.paymentMode) == (hasWinBack ? [.freeTrial] : []))
        #expect(yearly.winBackOffers.allSatisfy { $0.kind == .winBack })
    }

    @Test func groupDisplayNameFollowsTheLocale() throws {
        let catalogue = try StoreKitConfiguration.load(contentsOf: Repository.subscriptionCatalogue)
        let pro = try #require(catalogue.subscriptionGroup(id: "21C0FFEE"))
        #expect(pro.displayName(for: "en_US") == "Example Pro")
        #expect(pro.displayName(for: "en_GB") == "Example Pro (UK)")
        #expect(catalogue.subscriptionGroup(id: "3E0E1CE5")?.displayName(for: "en_US") == "News", "no localization")
        #expect(catalogue.settings.timeRate == 0)
        #expect(catalogue.settings.billingGracePeriodEnabled == false)
        #expect(catalogue.settings.billingIssuesEnabled == false)
        #expect(catalogue.settings.renewalBillingIssuesEnabled == false)
    }

    @Test func sameLevelTwiceIsACrossgradeNotAnError() throws {
        let text = file(subscriptions: [subscription(id: "a", level: 1), subscription(id: "b", level: 1)])
        let catalogue = try StoreKitConfiguration.parse(Data(text.utf8), source: "test.storekit")
        #expect(catalogue.products.map { $0.subscription?.groupLevel } == [1, 1])
    }

    @Test func monthlyBilledCommitmentOffersOf5_0AreLeftOut() throws {
        let offers = """
            "introductoryOffers": [
              {"billingPlanType": "MONTHLY", "paymentMode": "free", "subscriptionPeriod": "P2M"},
              {"billingPlanType": "BILLED_UPFRONT", "paymentMode": "free", "subscriptionPeriod": "P1M"}],
            "adHocOffers": [{"billingPlanType": "MONTHLY", "offerID": "m", "paymentMode": "free",
                             "subscriptionPeriod": "P2M"}],
            "billingPlans": [{"billingPlanType": "MONTHLY", "displayPrice": "0.5"}]
            """
        let text = file(subscriptions: [subscription(period: "P1Y", extra: offers)], version: "5.0")
        let catalogue = try StoreKitConfiguration.parse(Data(text.utf8), source: "test.storekit")
        let details = try #require(catalogue.products.first?.subscription)
        #expect(details.introductoryOffer?.period == .init(value: 1, unit: .month))
        #expect(details.promotionalOffers.isEmpty)
    }

    @Test func winBackWithACapitalBIsReadToo() throws {
        let offers = #""winBackOffers": [{"offerID": "w", "paymentMode": "free", "subscriptionPeriod": "P1W"}]"#
        let text = file(subscriptions: [subscription(extra: offers)])
        let catalogue = try StoreKitConfiguration.parse(Data(text.utf8), source: "test.storekit")
        #expect(catalogue.products.first?.subscription?.winBackOffers.map(\.id) == ["w"])
    }
}

// MARK: Refused

extension StoreKitSubscriptionTests {
    @Test(arguments: ["P1D", "P3D", "P2W", "P4M", "1M", "P0M", "PM", "P1X", "", "P1.5M"])
    func badRenewalPeriodNamesTheSubscription(period: String) {
        let error = refusal(file(subscriptions: [subscription(id: "a"), subscription(id: "b", period: period)]))
        #expect(error?.location == "subscriptionGroups[0].subscriptions[1].recurringSubscriptionPeriod")
        #expect(error?.problem.contains("is not a renewal period") == true)
    }

    @Test func badOfferPeriodNamesTheOffer() {
        let offers = #""adHocOffers": [{"offerID": "x", "paymentMode": "free", "subscriptionPeriod": "one month"}]"#
        let error = refusal(file(subscriptions: [subscription(extra: offers)]))
        #expect(error?.location == "subscriptionGroups[0].subscriptions[0].adHocOffers[0].subscriptionPeriod")
    }

    @Test(arguments: ["introductoryOffer", "adHocOffers", "codeOffers", "winbackOffers"])
    func unknownPaymentModeNamesTheOffer(key: String) {
        let offer = #"{"offerID": "x", "referenceName": "x", "paymentMode": "halfPrice", "subscriptionPeriod": "P1M"}"#
        let value = key == "introductoryOffer" ? offer : "[\(offer)]"
        let error = refusal(file(subscriptions: [subscription(extra: "\"\(key)\": \(value)")]))
        let index = key == "introductoryOffer" ? "" : "[0]"
        #expect(error?.location == "subscriptionGroups[0].subscriptions[0].\(key)\(index).paymentMode")
        #expect(error?.problem.contains("unknown payment mode \"halfPrice\"") == true)
    }

    @Test func duplicateProductIDAcrossListsIsRefused() {
        let products = "[\(StoreKitFixtures.product(id: "com.example.sub"))]"
        let error = refusal(file(subscriptions: [subscription()], products: products))
        #expect(error?.location == "subscriptionGroups[0].subscriptions[0]")
        #expect(error?.problem == "productID \"com.example.sub\" is already used by products[0]")
        let twice = refusal(file(subscriptions: [subscription(), subscription(level: 2)]))
        #expect(
            twice?.problem == "productID \"com.example.sub\" is already used by subscriptionGroups[0].subscriptions[0]")
    }

    @Test func productInTwoGroupsIsRefused() {
        let text = """
            {"subscriptionGroups": [
               {"id": "G1", "name": "one", "subscriptions": [\(subscription())]},
               {"id": "G2", "name": "two", "subscriptions": [\(subscription().replacingOccurrences(of: "\"G1\"", with: "\"G2\""))]}],
             "version": {"major": 3, "minor": 0}}
            """
        #expect(refusal(text)?.location == "subscriptionGroups[1].subscriptions[0]")
    }

    @Test func emptyGroupIsRefused() {
        let text = """
            {"subscriptionGroups": [{"id": "G1", "name": "one", "subscriptions": [\(subscription())]},
                                    {"id": "G2", "name": "two", "subscriptions": []}],
             "version": {"major": 3, "minor": 0}}
            """
        let error = refusal(text)
        #expect(error?.location == "subscriptionGroups[1].subscriptions")
        #expect(error?.problem.contains("has no subscriptions") == true)
    }

    @Test func duplicateGroupIDAndEmptyGroupIDAreRefused() {
        let twice = """
            {"subscriptionGroups": [{"id": "G1", "name": "one", "subscriptions": [\(subscription(id: "a"))]},
                                    {"id": "G1", "name": "two", "subscriptions": [\(subscription(id: "b"))]}],
             "version": {"major": 3, "minor": 0}}
            """
        #expect(refusal(twice)?.location == "subscriptionGroups[1].id")
        let empty = #"{"subscriptionGroups": [{"id": "", "subscriptions": []}], "version": {"major": 3, "minor": 0}}"#
        #expect(refusal(empty)?.location == "subscriptionGroups[0].id")
    }

    @Test func subscriptionGroupIDOfAnotherGroupIsRefused() {
        let entry = subscription().replacingOccurrences(of: "\"G1\"", with: "\"OTHER\"")
        #expect(
            refusal(file(subscriptions: [entry]))?.location
                == "subscriptionGroups[0].subscriptions[0].subscriptionGroupID")
    }

    @Test(arguments: [0, -1])
    func levelBelowOneIsRefused(level: Int) {
        #expect(
            refusal(file(subscriptions: [subscription(level: level)]))?.location
                == "subscriptionGroups[0].subscriptions[0].groupNumber")
    }

    @Test func missingLevelOrPeriodIsNamed() {
        let noLevel = subscription().replacingOccurrences(of: "\"groupNumber\": 1,", with: "")
        let error = refusal(file(subscriptions: [noLevel]))
        #expect(error?.location == "subscriptionGroups[0].subscriptions[0]")
        #expect(error?.problem == "missing key \"groupNumber\"")
    }

    @Test(arguments: ["Consumable", "NonRenewingSubscription", "AutoRenewable"])
    func otherTypesInAGroupAreRefused(type: String) {
        let entry = subscription().replacingOccurrences(of: "RecurringSubscription", with: type)
        #expect(refusal(file(subscriptions: [entry]))?.location == "subscriptionGroups[0].subscriptions[0].type")
    }

    @Test(arguments: ["introductoryOffer", "adHocOffers", "codeOffers", "winbackOffers"])
    func offersOnAnotherKindOfProductAreRefused(key: String) {
        let offer = #"{"offerID": "x", "paymentMode": "free", "subscriptionPeriod": "P1M"}"#
        let value = key == "introductoryOffer" ? offer : "[\(offer)]"
        let product = StoreKitFixtures.product(type: "NonConsumable").replacingOccurrences(
            of: "\"localizations\"", with: "\"\(key)\": \(value), \"localizations\"")
        let error = refusal(StoreKitFixtures.minimal(products: "[\(product)]"))
        #expect(error?.location == "products[0].\(key)")
        #expect(error?.problem.contains("has no subscription offers") == true)
    }

    @Test func emptyOfferListsOnOtherProductsAreFine() throws {
        let product = StoreKitFixtures.product().replacingOccurrences(
            of: "\"localizations\"", with: #""introductoryOffer": null, "adHocOffers": [], "localizations""#)
        let catalogue = try StoreKitConfiguration.parse(
            Data(StoreKitFixtures.minimal(products: "[\(product)]").utf8), source: "test.storekit")
        #expect(catalogue.products.count == 1)
    }

    @Test func badPricesAreNamed() {
        let bad = refusal(file(subscriptions: [subscription(price: "4,99")]))
        #expect(bad?.location == "subscriptionGroups[0].subscriptions[0].displayPrice")
        let freePaid =
            #""adHocOffers": [{"offerID": "x", "paymentMode": "payUpFront", "displayPrice": "0.00", "subscriptionPeriod": "P1M"}]"#
        #expect(
            refusal(file(subscriptions: [subscription(extra: freePaid)]))?.location
                == "subscriptionGroups[0].subscriptions[0].adHocOffers[0].displayPrice")
        let noPrice =
            #""codeOffers": [{"referenceName": "C", "paymentMode": "payAsYouGo", "subscriptionPeriod": "P1M"}]"#
        let missing = refusal(file(subscriptions: [subscription(extra: noPrice)]))
        #expect(missing?.location == "subscriptionGroups[0].subscriptions[0].codeOffers[0]")
        #expect(missing?.problem.contains("displayPrice") == true)
        let badOffer =
            #""winbackOffers": [{"offerID": "w", "paymentMode": "payUpFront", "displayPrice": "1.2345", "subscriptionPeriod": "P1M"}]"#
        #expect(
            refusal(file(subscriptions: [subscription(extra: badOffer)]))?.location
                == "subscriptionGroups[0].subscriptions[0].winbackOffers[0].displayPrice")
    }

    @Test func offersNeedIdsAndCountsAndNoDuplicates() {
        let noID = #""adHocOffers": [{"paymentMode": "free", "subscriptionPeriod": "P1M"}]"#
        #expect(
            refusal(file(subscriptions: [subscription(extra: noID)]))?.location
                == "subscriptionGroups[0].subscriptions[0].adHocOffers[0].offerID")
        let noName = #""codeOffers": [{"paymentMode": "free", "subscriptionPeriod": "P1M"}]"#
        #expect(
            refusal(file(subscriptions: [subscription(extra: noName)]))?.location
                == "subscriptionGroups[0].subscriptions[0].codeOffers[0].referenceName")
        let zero =
            #""winbackOffers": [{"offerID": "w", "paymentMode": "free", "numberOfPeriods": 0, "subscriptionPeriod": "P1M"}]"#
        #expect(
            refusal(file(subscriptions: [subscription(extra: zero)]))?.location
                == "subscriptionGroups[0].subscriptions[0].winbackOffers[0].numberOfPeriods")
        let twice =
            #""adHocOffers": [{"offerID": "p", "paymentMode": "free", "subscriptionPeriod": "P1M"}, {"offerID": "p", "paymentMode": "free", "subscriptionPeriod": "P1W"}]"#
        let error = refusal(file(subscriptions: [subscription(extra: twice)]))
        #expect(error?.location == "subscriptionGroups[0].subscriptions[0].adHocOffers[1]")
        #expect(
            error?.problem == "offer \"p\" is already used by subscriptionGroups[0].subscriptions[0].adHocOffers[0]")
    }

    @Test func aFreeOfferIsFreeWhateverPriceTheFileKeeps() throws {
        // Xcode 3.0 files keep the price an offer had before it was made a free trial.
        let stale =
            #""introductoryOffer": {"paymentMode": "free", "displayPrice": "0.99", "subscriptionPeriod": "P3D"}"#
        let catalogue = try StoreKitConfiguration.parse(
            Data(file(subscriptions: [subscription(extra: stale)]).utf8), source: "test.storekit")
        let offer = try #require(catalogue.products.first?.subscription?.introductoryOffer)
        #expect(offer.paymentMode == .freeTrial)
        #expect(offer.priceMilliunits == 0)
        #expect(offer.displayPrice == "0")
    }

    @Test func offerCodeEligibilityIsCheckedAndDefaultsToEveryone() throws {
        let unknown =
            #""codeOffers": [{"referenceName": "C", "paymentMode": "free", "subscriptionPeriod": "P1M", "eligibility": ["new", "vip"]}]"#
        let error = refusal(file(subscriptions: [subscription(extra: unknown)]))
        #expect(error?.location == "subscriptionGroups[0].subscriptions[0].codeOffers[0].eligibility[1]")
        #expect(error?.problem.contains("\"vip\"") == true)
        let none = #""codeOffers": [{"referenceName": "C", "paymentMode": "free", "subscriptionPeriod": "P1M"}]"#
        let catalogue = try StoreKitConfiguration.parse(
            Data(file(subscriptions: [subscription(extra: none)]).utf8), source: "test.storekit")
        #expect(
            catalogue.products.first?.subscription?.offerCodes.first?.codeEligibility == [.new, .existing, .expired])
    }
}
