/// The shape of a `.storekit` file's `subscriptionGroups`, as JSON.
///
/// Field names are the same in every version from 1.x to 5.x; what changed is which fields are written:
/// `numberOfPeriods` and the offers' `displayPrice` are missing from early files (one period; free offers carry
/// no price), `codeOffers` came in 1.2, `winbackOffers` in 4.0, `billingPlans`, `billingPlanType` and the list
/// `introductoryOffers` in 5.0 (monthly billing of a yearly commitment, not modelled: only the plan billed up
/// front is read).
extension StoreKitFile {
    struct SubscriptionGroup: Decodable {
        var id: String
        var name: String?
        var localizations: [Localization]?
        var subscriptions: [Subscription]?
    }

    struct Subscription: Decodable {
        var productID: String
        var type: String
        var displayPrice: String
        var referenceName: String?
        var internalID: String?
        var familyShareable: Bool?
        var localizations: [Localization]?
        var groupNumber: Int
        var recurringSubscriptionPeriod: String
        var subscriptionGroupID: String?
        var introductoryOffer: Offer?
        var introductoryOffers: [Offer]?
        var adHocOffers: [Offer]?
        var codeOffers: [Offer]?
        var winbackOffers: [Offer]?
        /// Hand-written files sometimes spell it with a capital B, as StoreKit's API does.
        var winBackOffers: [Offer]?
    }

    /// One offer in any of the four lists (`introductoryOffer`, `adHocOffers`, `codeOffers`, `winbackOffers`).
    struct Offer: Decodable {
        var internalID: String?
        /// Promotional and win-back offers; offer codes are named by `referenceName`.
        var offerID: String?
        var referenceName: String?
        var paymentMode: String
        var subscriptionPeriod: String
        var numberOfPeriods: Int?
        var displayPrice: String?
        /// Offer codes: who may redeem them (`new`, `existing`, `expired`).
        var eligibility: [String]?
        var isStackable: Bool?
        /// 5.0: `BILLED_UPFRONT` or `MONTHLY` (a yearly commitment billed monthly).
        var billingPlanType: String?
    }
}
