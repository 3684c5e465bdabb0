import StoreTestControls
import StoreWire

/// Price increases of auto-renewable subscriptions (`SKTestSession`'s price-increase consent request, consent and
/// decline): PRICE_INCREASE PENDING, then ACCEPTED; `priceIncreaseStatus` in the renewal info.
extension StoreBilling {
    /// The developer raises the price of the subscription's next renewals: PRICE_INCREASE PENDING (the customer
    /// must consent, `priceIncreaseStatus` 0), or ACCEPTED at once when it needs no consent. Default price: 10% more
    /// than now, to the cent.
    ///
    /// - Throws: ``MockStoreError`` 4000000 for a price not above zero; 409 for a subscription not in force.
    public func requestPriceIncrease(_ reference: String, _ request: TestPriceIncreaseRequest) throws(MockStoreError)
        -> TestSubscriptionEventRecord
    {
        if let price = request.price, price <= 0 {
            throw .invalid(.invalidPrice(price))
        }
        let needsConsent = request.needsConsent ?? true
        return try billingControl(reference) { now, state in
            .requestPriceIncrease(price: request.price ?? Self.increased(state), needsConsent: needsConsent, at: now)
        }
    }

    /// The customer agrees to the price increase: PRICE_INCREASE ACCEPTED (`priceIncreaseStatus` 1); the next
    /// renewal is at the new price.
    public func consentToPriceIncrease(_ reference: String) throws(MockStoreError) -> TestSubscriptionEventRecord {
        try billingControl(reference) { now, _ in .consentToPriceIncrease(at: now) }
    }

    /// The customer refuses the price increase: auto-renew off (DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_DISABLED), and
    /// at the end of the period EXPIRED PRICE_INCREASE.
    public func declinePriceIncrease(_ reference: String) throws(MockStoreError) -> TestSubscriptionEventRecord {
        try billingControl(reference) { now, _ in .declinePriceIncrease(at: now) }
    }

    /// 10% above what the next renewal of `state` costs now, rounded up to the cent (10 milliunits).
    static func increased(_ state: SubscriptionState) -> Int64 {
        let base = max(state.renewalPrice, 10)
        let raised = base + (base + 9) / 10
        return (raised + 9) / 10 * 10
    }
}
