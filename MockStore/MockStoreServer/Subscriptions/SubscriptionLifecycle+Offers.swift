import StoreKitCatalogue
import StoreWire

extension SubscriptionLifecycle {
    /// A purchase with an offer (promotional, offer code or win-back): OFFER_REDEEMED. With nothing of the group in
    /// force it subscribes under the offer (INITIAL_BUY, or RESUBSCRIBE after an earlier subscription); with this
    /// product in force the offer applies from the next renewal (no subtype); with another product of the group it
    /// changes plan under the offer (UPGRADE now, DOWNGRADE at the next renewal).
    public func redeem(
        _ offer: SubscriptionOffer, productId: String, existing: SubscriptionState?, at date: Int64,
        context: SubscriptionPurchaseContext
    ) throws(SubscriptionLifecycleError) -> SubscriptionStep {
        let product = try product(productId)
        let applied = AppliedOffer(offer)
        if let existing, existing.status == .active || existing.status == .billingGracePeriod {
            if existing.productId == productId, existing.autoRenewProductId == productId {
                var next = existing
                next.nextOffer = applied
                next.renewalPrice = applied.price
                return SubscriptionStep(state: next, notice: SubscriptionNotice(.offerRedeemed))
            }
            var step = try apply(.changeProduct(to: productId, at: date), to: existing)
            if step.newTransaction != nil {
                start(&step, under: applied, product: product, at: date)
                step.notice = SubscriptionNotice(.offerRedeemed, .upgrade)
            } else {
                step.state.nextOffer = applied
                step.state.renewalPrice = applied.price
                step.notice = SubscriptionNotice(.offerRedeemed, .downgrade)
            }
            return step
        }
        var step = try subscribe(productId, previous: existing, at: date, context: context)
        // The offer redeemed takes the place of an introductory offer, which stays unused.
        step.state.usedIntroductoryOffer = existing?.usedIntroductoryOffer ?? false
        start(&step, under: applied, product: product, at: date)
        step.notice = SubscriptionNotice(.offerRedeemed, existing == nil ? .initialBuy : .resubscribe)
        return step
    }

    /// The period `step` starts at `date` is under `offer`: its price, its length, and what follows it.
    private func start(
        _ step: inout SubscriptionStep, under offer: AppliedOffer, product: SubscriptionProduct, at date: Int64
    ) {
        let expires = end(of: date, product: product, offer: offer)
        step.newTransaction?.offer = offer
        step.newTransaction?.price = offer.price
        step.newTransaction?.expiresDate = expires
        step.state.currentOffer = offer
        step.state.expiresDate = expires
        step.state.nextOffer = Self.following(offer)
        step.state.renewalPrice = step.state.nextOffer?.price ?? Self.price(of: product, step.state)
    }
}
