import StoreWire

/// What only an auto-renewable subscription's transaction has (the `transactions` table's version 3 columns).
public struct TransactionSubscriptionFields: Equatable, Sendable {
    public var expiresDate: Int64
    /// One per period bought (`webOrderLineItemId`).
    public var webOrderLineItemId: String
    public var subscriptionGroupIdentifier: String
    public var isUpgraded: Bool
    public var offerType: OfferType?
    public var offerIdentifier: String?
    public var offerDiscountType: OfferDiscountType?
    public var offerPeriod: String?

    public init(
        expiresDate: Int64, webOrderLineItemId: String = "", subscriptionGroupIdentifier: String,
        isUpgraded: Bool = false, offerType: OfferType? = nil, offerIdentifier: String? = nil,
        offerDiscountType: OfferDiscountType? = nil, offerPeriod: String? = nil
    ) {
        self.expiresDate = expiresDate
        self.webOrderLineItemId = webOrderLineItemId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.isUpgraded = isUpgraded
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.offerDiscountType = offerDiscountType
        self.offerPeriod = offerPeriod
    }
}

/// What a new subscription transaction carries beyond a one-time purchase: its fields, the subscription it
/// belongs to (nil: it starts one) and why it was made.
public struct NewSubscriptionTransaction: Equatable, Sendable {
    public var fields: TransactionSubscriptionFields
    /// The subscription's original transaction (`nil`: this one is it).
    public var originalTransactionId: String?
    public var originalPurchaseDate: Int64?
    public var transactionReason: TransactionReason

    public init(
        fields: TransactionSubscriptionFields, originalTransactionId: String?, originalPurchaseDate: Int64?,
        transactionReason: TransactionReason
    ) {
        self.fields = fields
        self.originalTransactionId = originalTransactionId
        self.originalPurchaseDate = originalPurchaseDate
        self.transactionReason = transactionReason
    }
}
