/// Bodies of the mock store's billing and price-increase test controls (what `SKTestSession` does for
/// subscriptions' billing), under `/test/v1/`.

/// `GET /test/v1/settings/billing`: the billing settings in force.
public struct TestBillingSettingsBody: Codable, Sendable, Equatable {
    /// The next renewal of every subscription fails to bill (`SKTestSession.shouldEnterBillingRetryOnRenewal`;
    /// default: the `.storekit` file's `_renewalBillingIssuesEnabled`).
    public var billingRetryOnRenewal: Bool
    /// A renewal that fails to bill starts a grace period (`billingGracePeriodIsEnabled`; default
    /// `_billingGracePeriodEnabled`).
    public var gracePeriodEnabled: Bool
    /// StoreKit shows its Billing Problem message (`Message.Reason.billingIssue`) while a subscription is in
    /// billing retry (default `_billingIssuesEnabled`).
    public var billingIssueMessagesEnabled: Bool
    /// Products taken off sale: they do not renew.
    public var productsNotForSale: [String]

    public init(
        billingRetryOnRenewal: Bool, gracePeriodEnabled: Bool, billingIssueMessagesEnabled: Bool,
        productsNotForSale: [String]
    ) {
        self.billingRetryOnRenewal = billingRetryOnRenewal
        self.gracePeriodEnabled = gracePeriodEnabled
        self.billingIssueMessagesEnabled = billingIssueMessagesEnabled
        self.productsNotForSale = productsNotForSale
    }
}

/// `POST /test/v1/settings/billing`: the billing settings to change; the others stay. `productId` with `forSale`
/// takes a product off sale (`false`) or puts it back (`true`).
public struct TestBillingSettingsUpdate: Codable, Sendable, Equatable {
    public var billingRetryOnRenewal: Bool?
    public var gracePeriodEnabled: Bool?
    public var billingIssueMessagesEnabled: Bool?
    public var productId: String?
    public var forSale: Bool?

    public init(
        billingRetryOnRenewal: Bool? = nil, gracePeriodEnabled: Bool? = nil, billingIssueMessagesEnabled: Bool? = nil,
        productId: String? = nil, forSale: Bool? = nil
    ) {
        self.billingRetryOnRenewal = billingRetryOnRenewal
        self.gracePeriodEnabled = gracePeriodEnabled
        self.billingIssueMessagesEnabled = billingIssueMessagesEnabled
        self.productId = productId
        self.forSale = forSale
    }
}

/// `POST /test/v1/transactions/{id}/price-increase` (optional body): the new price of the next renewals in
/// milliunits (default: 10% more, to the cent), and whether the customer must consent (default true: PRICE_INCREASE
/// PENDING; false: ACCEPTED at once).
public struct TestPriceIncreaseRequest: Codable, Sendable, Equatable {
    public var price: Int64?
    public var needsConsent: Bool?

    public init(price: Int64? = nil, needsConsent: Bool? = nil) {
        self.price = price
        self.needsConsent = needsConsent
    }
}

/// `GET /storekit/v1/messages`: StoreKit's messages waiting for the app (`Message.messages`), e.g. `billingIssue`.
public struct StoreMessagesBody: Codable, Sendable, Equatable {
    public var messages: [StoreMessage]
    public init(messages: [StoreMessage]) { self.messages = messages }
}

/// One StoreKit message: its `Message.Reason` (`billingIssue`, `priceIncreaseConsent`) and the subscription.
public struct StoreMessage: Codable, Sendable, Equatable {
    public var reason: String
    public var originalTransactionId: String
    public var productId: String

    public init(reason: String, originalTransactionId: String, productId: String) {
        self.reason = reason
        self.originalTransactionId = originalTransactionId
        self.productId = productId
    }
}

/// A purchase option naming a subscription offer (StoreKit's `Product.PurchaseOption.promotionalOffer`,
/// `.winBackOffer`, and a redeemed offer code): `type` `promotional`, `offerCode` or `winBack`, and the offer's id
/// (an offer code's reference name).
///
/// A promotional offer bought through the device API carries the developer's signature, in either of StoreKit's
/// forms: `keyID`, `nonce`, `timestamp` and `signature` (`promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`)
/// or `compactJWS` (`promotionalOffer(_:compactJWS:)`, iOS 18.4).
public struct PurchaseOfferOption: Codable, Sendable, Equatable {
    public var type: String
    public var id: String
    /// The id of the subscription offer key that made `signature`.
    public var keyID: String?
    /// The signature's one-time UUID.
    public var nonce: String?
    /// When the signature was made, UNIX milliseconds.
    public var timestamp: Int64?
    /// The base64 of the DER ECDSA P-256 signature over Apple's payload.
    public var signature: String?
    /// The signature as a JWS (`PromotionalOfferV2SignatureCreator`).
    public var compactJWS: String?

    public init(
        type: String, id: String, keyID: String? = nil, nonce: String? = nil, timestamp: Int64? = nil,
        signature: String? = nil, compactJWS: String? = nil
    ) {
        self.type = type
        self.id = id
        self.keyID = keyID
        self.nonce = nonce
        self.timestamp = timestamp
        self.signature = signature
        self.compactJWS = compactJWS
    }
}
