import StoreWire

/// A transaction as the mock store keeps it in SQLite.
///
/// Dates are integer milliseconds since 1970 and `price` is in milliunits of `currency` for the whole
/// purchase (unit price × quantity), as in Apple's signed transactions.
public struct StoredTransaction: Equatable, Sendable {
    /// Where a transaction is in its life: purchased, pending or declined.
    public typealias Status = StoreWire.TransactionStatus

    /// How a transaction came to be: a purchase call from the app, or something the app did not ask for
    /// (an outside purchase); the updates feed delivers the second kind.
    public typealias Origin = StoreWire.TransactionOrigin

    /// What a pending purchase waits for: a parent's approval (Ask to Buy, approved or declined by a test
    /// control) or an issue the customer must resolve (an interrupted purchase, resolved by a test control).
    public typealias PendingReason = StoreWire.PendingReason

    /// Where a customer's refund request stands (Apple's CONSUMPTION_REQUEST, then REFUND or REFUND_DECLINED).
    public typealias RefundRequest = StoreWire.RefundRequestState

    public var id: String
    /// The store's own counter (1, 2, …), kept in SQLite so that a restart never reuses an id.
    public var serial: Int64
    public var originalTransactionId: String
    public var productId: String
    public var productType: ProductType
    public var quantity: Int
    public var price: Int64
    public var currency: String
    public var storefront: String
    public var storefrontId: String
    public var purchaseDate: Int64
    public var originalPurchaseDate: Int64
    public var appAccountToken: String?
    public var transactionReason: TransactionReason
    public var inAppOwnershipType: InAppOwnershipType
    public var origin: Origin
    public var status: Status
    public var isFinished: Bool
    public var finishedDate: Int64?
    public var revocationDate: Int64?
    public var revocationReason: RevocationReason?
    public var revocationType: RevocationType?
    public var revocationPercentage: Int?
    /// How many times this transaction has changed (1 when created).
    public var version: Int64
    /// The store-wide change sequence number of this transaction's last change (see ``TransactionChange``).
    public var changeSequence: Int64
    /// The order this purchase belongs to (`MOCK` + 8 digits), for Look Up Order ID.
    public var orderId: String
    /// With ``Status/pending``: what the purchase waits for.
    public var pendingReason: PendingReason?
    /// A refund request, if the customer made one.
    public var refundRequest: RefundRequest?
    /// Auto-renewable subscriptions only.
    public var subscription: TransactionSubscriptionFields? = nil
    /// The customer whose transaction it is (``CustomerContext``; 1 the default customer).
    public var customerId: Int64 = CustomerContext.defaultId

    /// The payload to sign for this transaction, stamped with `signedDate` (milliseconds since 1970).
    public func signedPayload(bundleId: String, signedDate: Int64, environment: AppStoreEnvironment = .sandbox)
        -> SignedTransactionPayload
    {
        SignedTransactionPayload(
            transactionId: id, originalTransactionId: originalTransactionId, bundleId: bundleId,
            productId: productId, purchaseDate: purchaseDate, originalPurchaseDate: originalPurchaseDate,
            quantity: quantity, type: productType, inAppOwnershipType: inAppOwnershipType, signedDate: signedDate,
            environment: environment, transactionReason: transactionReason, storefront: storefront,
            storefrontId: storefrontId, price: price, currency: currency, appAccountToken: appAccountToken,
            revocationDate: revocationDate, revocationReason: revocationReason,
            revocationType: revocationDate == nil ? nil : revocationType,
            revocationPercentage: revocationDate == nil ? nil : revocationPercentage
        )
        .withSubscription(subscription)
    }
}

extension SignedTransactionPayload {
    /// The payload with a subscription transaction's fields (unchanged for any other transaction).
    func withSubscription(_ fields: TransactionSubscriptionFields?) -> SignedTransactionPayload {
        guard let fields else { return self }
        var payload = self
        payload.expiresDate = fields.expiresDate
        payload.webOrderLineItemId = fields.webOrderLineItemId
        payload.subscriptionGroupIdentifier = fields.subscriptionGroupIdentifier
        payload.isUpgraded = fields.isUpgraded ? true : nil
        payload.offerType = fields.offerType
        payload.offerIdentifier = fields.offerIdentifier
        payload.offerDiscountType = fields.offerDiscountType
        payload.offerPeriod = fields.offerPeriod
        return payload
    }
}
