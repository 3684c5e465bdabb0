import StoreWire

/// The clock, subscription, billing, offer and Family Sharing controls.
extension TestControls {
    /// The virtual clock: virtual now and rate.
    public static let clock = Endpoint<NoBody, TestClockBody, NoParameters>(.get, "/test/v1/clock")
    /// Moves the clock on by an ISO 8601 duration, running every renewal and expiry due on the way.
    public static let advanceClock = Endpoint<TestClockRequest, TestClockBody, NoParameters>(
        .post, "/test/v1/clock/advance")
    /// Sets Xcode's time rate.
    public static let setClockRate = Endpoint<TestClockRequest, TestClockBody, NoParameters>(
        .post, "/test/v1/clock/rate")
    /// Every subscription: status, product, renewal info.
    public static let subscriptions = Endpoint<NoBody, TestSubscriptionsBody, NoParameters>(
        .get, "/test/v1/subscriptions")
    /// Renews the subscription now: `DID_RENEW`.
    public static let renew = Endpoint<NoBody, TestSubscriptionEventRecord, SubscriptionReferencePath>(
        .post, "/test/v1/subscriptions/{subscription}/renew",
        errors: [
            StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound, StoreErrorCode.invalidProductId,
            StoreErrorCode.conflict,
        ])
    /// Expires the subscription now: `EXPIRED VOLUNTARY`.
    public static let expire = Endpoint<NoBody, TestSubscriptionEventRecord, SubscriptionReferencePath>(
        .post, "/test/v1/subscriptions/{subscription}/expire",
        errors: [
            StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound, StoreErrorCode.invalidProductId,
            StoreErrorCode.conflict,
        ])
    /// Turns auto-renew on or off: `DID_CHANGE_RENEWAL_STATUS`.
    public static let autoRenew = Endpoint<
        TestAutoRenewRequest, TestSubscriptionEventRecord, SubscriptionReferencePath
    >(
        .post, "/test/v1/subscriptions/{subscription}/auto-renew",
        errors: [
            StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound, StoreErrorCode.invalidProductId,
            StoreErrorCode.conflict,
        ])
    /// An upgrade, downgrade or crossgrade to the body's product: `DID_CHANGE_RENEWAL_PREF`.
    public static let change = Endpoint<PurchaseRequestBody, TestSubscriptionEventRecord, SubscriptionReferencePath>(
        .post, "/test/v1/subscriptions/{subscription}/change",
        errors: [
            StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound, StoreErrorCode.invalidProductId,
            StoreErrorCode.conflict,
        ])

    // MARK: Billing

    /// The billing settings in force.
    public static let billingSettings = Endpoint<NoBody, TestBillingSettingsBody, NoParameters>(
        .get, billingSettingsPath)
    /// Changes the billing settings the update names.
    public static let updateBillingSettings = Endpoint<
        TestBillingSettingsUpdate, TestBillingSettingsBody, NoParameters
    >(
        .post, billingSettingsPath, errors: [StoreErrorCode.invalidProductId])
    /// The subscription's billing issue ends: `DID_RENEW BILLING_RECOVERY`.
    public static let recoverBilling = Endpoint<NoBody, TestSubscriptionEventRecord, SubscriptionReferencePath>(
        .post, "/test/v1/subscriptions/{subscription}/recover",
        errors: [
            StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound, StoreErrorCode.invalidProductId,
            StoreErrorCode.conflict,
        ])
    /// Raises the price of the subscription's next renewals (the body is optional).
    public static let priceIncrease = Endpoint<
        TestPriceIncreaseRequest, TestSubscriptionEventRecord, SubscriptionReferencePath
    >(
        .post, "/test/v1/subscriptions/{subscription}/price-increase",
        errors: [
            StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound, StoreErrorCode.invalidProductId,
            StoreErrorCode.conflict,
        ])
    /// The customer agrees to the price increase: `PRICE_INCREASE ACCEPTED`.
    public static let consentToPriceIncrease = Endpoint<NoBody, TestSubscriptionEventRecord, SubscriptionReferencePath>(
        .post, "/test/v1/subscriptions/{subscription}/price-increase/consent",
        errors: [
            StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound, StoreErrorCode.invalidProductId,
            StoreErrorCode.conflict,
        ])
    /// The customer refuses the price increase.
    public static let declinePriceIncrease = Endpoint<NoBody, TestSubscriptionEventRecord, SubscriptionReferencePath>(
        .post, "/test/v1/subscriptions/{subscription}/price-increase/decline",
        errors: [
            StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound, StoreErrorCode.invalidProductId,
            StoreErrorCode.conflict,
        ])

    // MARK: Offers and Family Sharing

    /// Registers a subscription offer key.
    public static let registerOfferKey = Endpoint<TestOfferKeyRequest, TestOfferKeysBody, NoParameters>(
        .post, offerKeysPath)
    /// The ids of the subscription offer keys registered.
    public static let offerKeys = Endpoint<NoBody, TestOfferKeysBody, NoParameters>(.get, offerKeysPath)
    /// A family member shares the body's family-shareable subscription with this customer.
    public static let familyShare = Endpoint<PurchaseRequestBody, TestSubscriptionEventRecord, NoParameters>(
        .post, "/test/v1/family-sharing", errors: [StoreErrorCode.invalidProductId, StoreErrorCode.conflict])
    /// Family Sharing of the subscription ends: `REVOKE`.
    public static let familyRevoke = Endpoint<NoBody, TestTransactionBody, SubscriptionReferencePath>(
        .post, "/test/v1/subscriptions/{subscription}/family-revoke",
        errors: [
            StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound, StoreErrorCode.invalidProductId,
            StoreErrorCode.conflict,
        ])

    static let billingSettingsPath: PathTemplate = "/test/v1/settings/billing"
    static let offerKeysPath: PathTemplate = "/test/v1/offer-keys"
}
