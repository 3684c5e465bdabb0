/// The payload of a signed transaction, with Apple's field names and types
/// (`JWSTransactionDecodedPayload`). Dates are integer milliseconds since 1970; `price` is in milliunits.
///
/// One definition, shared by the mock store (which signs it) and the payments layer (which verifies it).
public struct SignedTransactionPayload: Codable, Sendable, Equatable {
    public var transactionId: String
    public var originalTransactionId: String
    public var bundleId: String
    public var productId: String
    public var purchaseDate: Int64
    public var originalPurchaseDate: Int64
    public var quantity: Int
    public var type: ProductType
    public var inAppOwnershipType: InAppOwnershipType
    public var signedDate: Int64
    public var environment: AppStoreEnvironment
    public var transactionReason: TransactionReason
    public var storefront: String
    public var storefrontId: String
    public var price: Int64
    public var currency: String
    public var appAccountToken: String?
    public var revocationDate: Int64?
    public var revocationReason: RevocationReason?
    /// With `revocationDate`.
    public var revocationType: RevocationType?
    /// How much was refunded, in milli-percent (100000 for a full refund), with `revocationDate`.
    public var revocationPercentage: Int?
    public var webOrderLineItemId: String?
    /// The customer's app transaction (the same in every transaction of the customer; see ``AppTransactionPayload``).
    public var appTransactionId: String?
    /// Device API only (as StoreKit's `jwsRepresentation` has it): base64 of the SHA-384 of
    /// `deviceVerificationNonce` followed by the device's verification id, both lowercased UUID strings.
    public var deviceVerification: String?
    /// Device API only: the lowercased UUID `deviceVerification` was computed with.
    public var deviceVerificationNonce: String?
    /// Auto-renewable subscriptions: when the period this transaction bought ends.
    public var expiresDate: Int64?
    /// Auto-renewable subscriptions: the group (the `.storekit` group's id).
    public var subscriptionGroupIdentifier: String?
    /// Auto-renewable subscriptions: `true` on a transaction an upgrade replaced.
    public var isUpgraded: Bool?
    public var offerType: OfferType?
    public var offerIdentifier: String?
    public var offerDiscountType: OfferDiscountType?
    /// The offer's duration, ISO 8601.
    public var offerPeriod: String?

    public init(
        transactionId: String, originalTransactionId: String, bundleId: String, productId: String,
        purchaseDate: Int64, originalPurchaseDate: Int64, quantity: Int, type: ProductType,
        inAppOwnershipType: InAppOwnershipType = .purchased, signedDate: Int64,
        environment: AppStoreEnvironment = .sandbox, transactionReason: TransactionReason = .purchase,
        storefront: String = "GBR", storefrontId: String = "143444",
        price: Int64, currency: String = "GBP", appAccountToken: String? = nil,
        revocationDate: Int64? = nil, revocationReason: RevocationReason? = nil, webOrderLineItemId: String? = nil,
        revocationType: RevocationType? = nil, revocationPercentage: Int? = nil, appTransactionId: String? = nil,
        deviceVerification: String? = nil, deviceVerificationNonce: String? = nil
    ) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.bundleId = bundleId
        self.productId = productId
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.quantity = quantity
        self.type = type
        self.inAppOwnershipType = inAppOwnershipType
        self.signedDate = signedDate
        self.environment = environment
        self.transactionReason = transactionReason
        self.storefront = storefront
        self.storefrontId = storefrontId
        self.price = price
        self.currency = currency
        self.appAccountToken = appAccountToken
        self.revocationDate = revocationDate
        self.revocationReason = revocationReason
        self.webOrderLineItemId = webOrderLineItemId
        self.revocationType = revocationType
        self.revocationPercentage = revocationPercentage
        self.appTransactionId = appTransactionId
        self.deviceVerification = deviceVerification
        self.deviceVerificationNonce = deviceVerificationNonce
    }
}
