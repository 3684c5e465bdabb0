/// What only an auto-renewable subscription's transaction has (the `transactions` table's version 3 columns).
public struct TransactionSubscriptionFields: Equatable, Sendable {
    public var expiresDate: Int64
    /// One per period bought (`webOrderLineItemId`).
    public var webOrderLineItemId: String
    public var subscriptionGroupIdentifier: String
    public var isUpgraded: Bool
    public var offerType: Int?
    public var offerIdentifier: String?
    public var offerDiscountType: String?
    public var offerPeriod: String?

    public init(
        expiresDate: Int64, webOrderLineItemId: String = "", subscriptionGroupIdentifier: String,
        isUpgraded: Bool = false, offerType: Int? = nil, offerIdentifier: String? = nil,
        offerDiscountType: String? = nil, offerPeriod: String? = nil
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
    /// `PURCHASE` or `RENEWAL`.
    public var transactionReason: String

    public init(
        fields: TransactionSubscriptionFields, originalTransactionId: String?, originalPurchaseDate: Int64?,
        transactionReason: String
    ) {
        self.fields = fields
        self.originalTransactionId = originalTransactionId
        self.originalPurchaseDate = originalPurchaseDate
        self.transactionReason = transactionReason
    }
}
