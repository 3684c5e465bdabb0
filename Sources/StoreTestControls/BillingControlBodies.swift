import StoreWire

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
