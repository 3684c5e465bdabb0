/// What the test session says about billing when a subscription renews (`SKTestSession`'s
/// `shouldEnterBillingRetryOnRenewal` and `billingGracePeriodIsEnabled`; the `.storekit` file's
/// `_renewalBillingIssuesEnabled` and `_billingGracePeriodEnabled` are their defaults), and the products taken off
/// sale.
public struct BillingSettings: Equatable, Sendable {
    /// A renewal fails to bill and the subscription enters billing retry.
    public var billingRetryOnRenewal: Bool
    /// A failed renewal starts a grace period in which the customer keeps access.
    public var gracePeriodEnabled: Bool
    /// Products no longer for sale: they do not renew (EXPIRED PRODUCT_NOT_FOR_SALE).
    public var productsNotForSale: Set<String>

    public init(
        billingRetryOnRenewal: Bool = false, gracePeriodEnabled: Bool = false, productsNotForSale: Set<String> = []
    ) {
        self.billingRetryOnRenewal = billingRetryOnRenewal
        self.gracePeriodEnabled = gracePeriodEnabled
        self.productsNotForSale = productsNotForSale
    }
}
