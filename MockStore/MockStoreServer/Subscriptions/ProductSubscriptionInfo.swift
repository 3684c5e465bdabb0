import StoreKitCatalogue
import StoreWire

/// An auto-renewable's ``SubscriptionDetails`` as the device API shows them: StoreKit's `Product.SubscriptionInfo`,
/// prices in the storefront's currency and the group's name in the locale in force.
///
/// Offer codes are not listed: StoreKit does not show them on a product (they are redeemed, not browsed).
extension StoreKitConfiguration {
    /// `Product.subscription` of `product`; `nil` unless it is an auto-renewable subscription.
    func subscriptionInfo(of product: CatalogueProduct, storefront: Storefront, locale: String)
        -> StoreSubscriptionInfo?
    {
        guard let details = product.subscription else { return nil }
        let offer = { (offer: SubscriptionOffer) in Self.wireOffer(offer, currency: storefront.currency, locale: locale)
        }
        return StoreSubscriptionInfo(
            subscriptionGroupID: details.groupID, subscriptionPeriod: Self.wirePeriod(details.period),
            introductoryOffer: details.introductoryOffer.map(offer),
            promotionalOffers: details.promotionalOffers.map(offer), winBackOffers: details.winBackOffers.map(offer),
            groupLevel: details.groupLevel,
            groupDisplayName: subscriptionGroup(id: details.groupID)?.displayName(for: locale) ?? details.groupID)
    }

    static func wirePeriod(_ period: SubscriptionPeriod) -> StoreSubscriptionPeriod {
        StoreSubscriptionPeriod(unit: period.unit.wire, value: period.value)
    }

    static func wireOffer(_ offer: SubscriptionOffer, currency: String, locale: String) -> StoreSubscriptionOffer {
        StoreSubscriptionOffer(
            id: offer.id, type: wireOfferType(offer.kind), price: offer.displayPrice,
            displayPrice: PriceFormatter.displayPrice(offer.displayPrice, currency: currency, locale: locale),
            period: wirePeriod(offer.period), periodCount: offer.periodCount, paymentMode: offer.paymentMode.wire)
    }

    /// StoreKit's `Product.SubscriptionOffer.OfferType` names (`Transaction.OfferType` adds `code`).
    static func wireOfferType(_ kind: SubscriptionOfferKind) -> SubscriptionOfferType {
        switch kind {
        case .introductory: .introductory
        case .promotional: .promotional
        case .offerCode: .code
        case .winBack: .winBack
        }
    }
}
