/// The shape of a `.storekit` file, as JSON. Keys the mock store does not use (policies, billing plans, …) are
/// not declared, so they are skipped whatever they hold.
struct StoreKitFile: Decodable {
    struct Version: Decodable {
        var major: Int
        var minor: Int
    }

    struct Localization: Decodable {
        var locale: String
        var displayName: String?
        var description: String?
    }

    struct Product: Decodable {
        var productID: String
        var type: String
        var displayPrice: String
        var referenceName: String?
        var internalID: String?
        var familyShareable: Bool?
        var localizations: [Localization]?
        /// Subscription-only keys, declared so that offers put on another kind of product are refused rather
        /// than dropped.
        var introductoryOffer: Ignored?
        var adHocOffers: [Ignored]?
        var codeOffers: [Ignored]?
        var winbackOffers: [Ignored]?
    }

    struct StoreKitError: Decodable {
        struct Current: Decodable {
            var index: Int?
            var type: String?
        }

        var name: String
        var enabled: Bool?
        var current: Current?
    }

    struct Settings: Decodable {
        var storefront: String?
        var locale: String?
        var askToBuyEnabled: Bool?
        var failTransactionsEnabled: Bool?
        var disableDialogs: Bool?
        var billingGracePeriodEnabled: Bool?
        var billingIssuesEnabled: Bool?
        var renewalBillingIssuesEnabled: Bool?
        var timeRate: Int?
        var storeKitErrors: [StoreKitError]?

        init() {}

        enum CodingKeys: String, CodingKey {
            case storefront = "_storefront"
            case locale = "_locale"
            case askToBuyEnabled = "_askToBuyEnabled"
            case failTransactionsEnabled = "_failTransactionsEnabled"
            case disableDialogs = "_disableDialogs"
            case billingGracePeriodEnabled = "_billingGracePeriodEnabled"
            case billingIssuesEnabled = "_billingIssuesEnabled"
            case renewalBillingIssuesEnabled = "_renewalBillingIssuesEnabled"
            case timeRate = "_timeRate"
            case storeKitErrors = "_storeKitErrors"
        }
    }

    /// Any JSON value, skipped.
    struct Ignored: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    var identifier: String?
    var version: Version
    var products: [Product]?
    var nonRenewingSubscriptions: [Product]?
    var subscriptionGroups: [SubscriptionGroup]?
    var settings: Settings?
}
