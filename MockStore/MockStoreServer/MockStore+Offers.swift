import StoreKitCatalogue
import StoreWire

/// Subscription offers redeemed in a purchase (promotional offers, offer codes, win-back offers): OFFER_REDEEMED.
/// Introductory offers need no option: the first purchase in a group has one when the product offers it.
extension MockStore {
    /// The step of a purchase that redeems `option` for `product`.
    ///
    /// - Throws: ``MockStoreError`` 4000000 for an offer the product does not have (StoreKit's
    ///   `Product.PurchaseError.invalidOfferIdentifier`) or a win-back offer for a customer who is not a lapsed
    ///   subscriber of the group (`ineligibleForOffer`).
    func redeemStep(
        _ option: PurchaseOfferOption, _ product: CatalogueProduct, _ existing: SubscriptionState?,
        _ request: PurchaseRequestBody, at now: Int64, _ database: TransactionStore
    ) throws -> SubscriptionStep {
        let kinds: [SubscriptionOfferKind] = [.promotional, .offerCode, .winBack]
        guard let kind = kinds.first(where: { $0.rawValue == option.type }),
            let offer = product.subscription?.offer(kind: kind, id: option.id)
        else {
            throw MockStoreError.badRequest(
                "Invalid offer (Product.PurchaseError.invalidOfferIdentifier): \(product.id) has no \(option.type) "
                    + "offer \"\(option.id)\" (types: promotional, offerCode, winBack).")
        }
        let lapsed = existing.map { $0.status == .expired || $0.status == .revoked } ?? false
        if kind == .winBack, !lapsed {
            throw MockStoreError.badRequest(
                "Not eligible (Product.PurchaseError.ineligibleForOffer): win-back offers are for customers whose "
                    + "subscription in the group has lapsed.")
        }
        let storefront = try storefront(database)
        let context = SubscriptionPurchaseContext(
            currency: storefront.currency, storefront: storefront.code, storefrontId: storefront.storefrontId,
            appAccountToken: request.appAccountToken)
        return try lifecycleStep { () throws(SubscriptionLifecycleError) in
            try subscriptionLifecycle.redeem(
                offer, productId: product.id, existing: existing, at: now, context: context)
        }
    }
}
