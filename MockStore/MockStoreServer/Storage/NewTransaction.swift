import StoreWire

/// What the store records when a transaction is made; the store adds the id, serial and change sequence.
public struct NewTransaction: Equatable, Sendable {
    public var productId: String
    public var productType: ProductType
    public var quantity: Int
    /// Milliunits for the whole purchase (unit price × quantity).
    public var price: Int64
    public var currency: String
    public var storefront: String
    public var storefrontId: String
    /// Milliseconds since 1970.
    public var purchaseDate: Int64
    public var appAccountToken: String?
    public var status: StoredTransaction.Status
    public var origin: StoredTransaction.Origin
    /// With a pending status: what it waits for.
    public var pendingReason: StoredTransaction.PendingReason?
    /// Auto-renewable subscriptions only.
    public var subscription: NewSubscriptionTransaction? = nil
    /// `familyShared` for a subscription a family member shares.
    public var inAppOwnershipType = InAppOwnershipType.purchased

    public init(
        productId: String, productType: ProductType, quantity: Int, price: Int64, currency: String, storefront: String,
        storefrontId: String, purchaseDate: Int64, appAccountToken: String? = nil,
        status: StoredTransaction.Status = .purchased, origin: StoredTransaction.Origin = .app,
        pendingReason: StoredTransaction.PendingReason? = nil
    ) {
        self.productId = productId
        self.productType = productType
        self.quantity = quantity
        self.price = price
        self.currency = currency
        self.storefront = storefront
        self.storefrontId = storefrontId
        self.purchaseDate = purchaseDate
        self.appAccountToken = appAccountToken
        self.status = status
        self.origin = origin
        self.pendingReason = pendingReason ?? (status == .pending ? .askToBuy : nil)
    }
}
