import Foundation
import StoreTestControls
import StoreWire

/// The subscription, billing, offer and Family Sharing controls (what `SKTestSession` does for auto-renewables, and
/// `mockstore control subscription …`, `billing-retry`, `price-increase`, `offer-key`, `family-share`), each one
/// typed call. A `subscription` is a transaction id of the subscription, or a product id of its group.
extension TestStore {
    /// Every subscription the store holds (the customer's, inside ``acting(as:_:)``): status, product, renewal info.
    public func subscriptions() async throws -> [TestSubscription] {
        try await send(TestControls.subscriptions).subscriptions
    }

    /// Renews the subscription now: `DID_RENEW` (`mockstore control subscription renew`).
    @discardableResult
    public func renew(_ subscription: String) async throws -> TestSubscriptionEventRecord {
        try await send(TestControls.renew, .init(subscription: subscription))
    }

    /// Expires the subscription now: `EXPIRED VOLUNTARY` (`mockstore control subscription expire`).
    @discardableResult
    public func expire(_ subscription: String) async throws -> TestSubscriptionEventRecord {
        try await send(TestControls.expire, .init(subscription: subscription))
    }

    /// Turns the subscription's auto-renew on or off: `DID_CHANGE_RENEWAL_STATUS`
    /// (`mockstore control subscription auto-renew on|off`).
    @discardableResult
    public func setAutoRenew(_ subscription: String, _ enabled: Bool) async throws -> TestSubscriptionEventRecord {
        try await send(
            TestControls.autoRenew, .init(subscription: subscription), body: TestAutoRenewRequest(enabled: enabled))
    }

    /// An upgrade, downgrade or crossgrade to `productID`: `DID_CHANGE_RENEWAL_PREF`, or at once for an upgrade
    /// (`mockstore control subscription change`).
    @discardableResult
    public func changeSubscription(_ subscription: String, to productID: String) async throws
        -> TestSubscriptionEventRecord
    {
        try await send(
            TestControls.change, .init(subscription: subscription), body: PurchaseRequestBody(productId: productID))
    }

    // MARK: Billing

    /// The billing settings in force (`mockstore control billing`).
    public func billingSettings() async throws -> TestBillingSettingsBody {
        try await send(TestControls.billingSettings)
    }

    /// Whether renewals fail to bill, putting subscriptions in billing retry (`DID_FAIL_TO_RENEW`;
    /// `SKTestSession.shouldEnterBillingRetryOnRenewal`, `mockstore control billing-retry on|off`).
    @discardableResult
    public func setBillingRetry(_ enabled: Bool) async throws -> TestBillingSettingsBody {
        try await send(
            TestControls.updateBillingSettings, body: TestBillingSettingsUpdate(billingRetryOnRenewal: enabled))
    }

    /// Whether a renewal that fails to bill starts a grace period with access (`billingGracePeriodIsEnabled`,
    /// `mockstore control grace-period on|off`).
    @discardableResult
    public func setGracePeriod(_ enabled: Bool) async throws -> TestBillingSettingsBody {
        try await send(TestControls.updateBillingSettings, body: TestBillingSettingsUpdate(gracePeriodEnabled: enabled))
    }

    /// Whether StoreKit shows its Billing Problem message while a subscription is in billing retry
    /// (`mockstore control billing-issues on|off`).
    @discardableResult
    public func setBillingIssueMessages(_ enabled: Bool) async throws -> TestBillingSettingsBody {
        try await send(
            TestControls.updateBillingSettings, body: TestBillingSettingsUpdate(billingIssueMessagesEnabled: enabled))
    }

    /// Takes a product off sale (`false`: it expires instead of renewing) or puts it back
    /// (`mockstore control for-sale PRODUCT on|off`).
    @discardableResult
    public func setForSale(_ productID: String, _ forSale: Bool) async throws -> TestBillingSettingsBody {
        try await send(
            TestControls.updateBillingSettings, body: TestBillingSettingsUpdate(productId: productID, forSale: forSale))
    }

    /// The subscription's billing issue ends, the charge succeeding now: `DID_RENEW BILLING_RECOVERY`
    /// (`mockstore control recover`).
    @discardableResult
    public func recoverBilling(_ subscription: String) async throws -> TestSubscriptionEventRecord {
        try await send(TestControls.recoverBilling, .init(subscription: subscription))
    }

    /// Raises the price of the subscription's next renewals to `price` milliunits (nil: 10% more, to the cent):
    /// `PRICE_INCREASE PENDING` until the customer consents, or `ACCEPTED` at once when `needsConsent` is false
    /// (`mockstore control price-increase [--price P] [--no-consent]`).
    @discardableResult
    public func increasePrice(_ subscription: String, to price: Int64? = nil, needsConsent: Bool = true) async throws
        -> TestSubscriptionEventRecord
    {
        try await send(
            TestControls.priceIncrease, .init(subscription: subscription),
            body: TestPriceIncreaseRequest(price: price, needsConsent: needsConsent ? nil : false))
    }

    /// The customer agrees to the price increase: `PRICE_INCREASE ACCEPTED`
    /// (`mockstore control consent-price-increase`).
    @discardableResult
    public func consentToPriceIncrease(_ subscription: String) async throws -> TestSubscriptionEventRecord {
        try await send(TestControls.consentToPriceIncrease, .init(subscription: subscription))
    }

    /// The customer refuses the price increase: auto-renew off, then `EXPIRED PRICE_INCREASE`
    /// (`mockstore control decline-price-increase`).
    @discardableResult
    public func declinePriceIncrease(_ subscription: String) async throws -> TestSubscriptionEventRecord {
        try await send(TestControls.declinePriceIncrease, .init(subscription: subscription))
    }

    // MARK: Offers and Family Sharing

    /// Registers a subscription offer key: promotional offers bought through the device API must be signed with it.
    /// `publicKeyPEM` is its public part (`-----BEGIN PUBLIC KEY-----`), what `mockstore control offer-key ID FILE`
    /// derives from the `.p8` file. Gives the ids of every key registered.
    @discardableResult
    public func registerOfferKey(_ keyID: String, publicKeyPEM: String) async throws -> [String] {
        try await send(TestControls.registerOfferKey, body: TestOfferKeyRequest(keyId: keyID, publicKey: publicKeyPEM))
            .keyIds
    }

    /// The ids of the subscription offer keys registered (`mockstore control offer-keys`).
    public func offerKeys() async throws -> [String] {
        try await send(TestControls.offerKeys).keyIds
    }

    /// A family member shares the family-shareable subscription `productID` with this customer: `FAMILY_SHARED`
    /// transactions, `SUBSCRIBED`, renewals on the clock (`mockstore control family-share`).
    @discardableResult
    public func familyShare(_ productID: String) async throws -> TestSubscriptionEventRecord {
        try await send(TestControls.familyShare, body: PurchaseRequestBody(productId: productID))
    }

    /// Family Sharing of the subscription ends (the purchaser stopped sharing, left the family or was refunded):
    /// `REVOKE` (`mockstore control family-revoke`).
    @discardableResult
    public func familyRevoke(_ subscription: String) async throws -> TestTransactionBody {
        try await send(TestControls.familyRevoke, .init(subscription: subscription))
    }
}

/// A subscription offer redeemed by ``TestStore/buy(_:quantity:appAccountToken:offer:)``, as `SKTestSession`'s
/// `buyProduct` takes one: no signature needed.
public enum TestOffer: Sendable, Equatable {
    /// A promotional offer, by its `offerID`.
    case promotional(String)
    /// An offer code, by its `referenceName` (the offer identifier Apple reports for a code).
    case offerCode(String)
    /// A win-back offer, by its `offerID`.
    case winBack(String)

    /// The purchase's `offer`, as `mockstore control buy --offer TYPE:ID` sends it.
    var option: PurchaseOfferOption {
        switch self {
        case .promotional(let id): PurchaseOfferOption(type: .promotional, id: id)
        case .offerCode(let id): PurchaseOfferOption(type: .offerCode, id: id)
        case .winBack(let id): PurchaseOfferOption(type: .winBack, id: id)
        }
    }
}
