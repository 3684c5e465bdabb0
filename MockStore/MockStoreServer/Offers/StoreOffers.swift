import MockStoreSQLite
import Signing
import StoreKitCatalogue
import StoreTestControls
import StoreWire

/// Subscription offers redeemed in a purchase (promotional offers, offer codes, win-back offers): OFFER_REDEEMED.
/// Introductory offers need no option: the first purchase in a group has one when the product offers it.
public struct StoreOffers: SubscriptionStorePart {
    let configuration: MockStore.Configuration
    let database: GroupCommit<TransactionStore>
    let runtime: SubscriptionRuntime
    let settings: StoreSettings
    /// Each customer's app transaction (a promotional offer's signature may name the customer's).
    let customerAppTransactions: CustomerAppTransactions
    /// The subscription offer keys promotional offers are checked with, registered by a test control.
    let promotionalOfferKeys = PromotionalOfferKeys()

    /// The catalogue's kind of offer a purchase names; nil for a kind it cannot name.
    static func offerKind(_ kind: PurchaseOfferKind) -> SubscriptionOfferKind? {
        switch kind {
        case .promotional: .promotional
        case .offerCode: .offerCode
        case .winBack: .winBack
        case .unrecognized: nil
        }
    }

    /// The step of a purchase that redeems `option` for `product`. A promotional offer bought through the device
    /// API (`signed`) needs the developer's signature, checked with a registered key; a test control's purchase
    /// (SKTestSession's `buyProduct` with `promotionalOffer(id:)`) needs none, but one it carries is checked.
    ///
    /// - Throws: ``MockStoreError`` 4000000 for an offer the product does not have (StoreKit's
    ///   `Product.PurchaseError.invalidOfferIdentifier`), a missing or bad signature (`missingOfferParameters`,
    ///   `invalidOfferSignature`), or a customer the offer is not for (`ineligibleForOffer`): an offer code's
    ///   `eligibility` (new, existing, expired customers of the group), a win-back offer for one whose subscription
    ///   in the group has not lapsed.
    func redeemStep(
        _ option: PurchaseOfferOption, _ product: CatalogueProduct, _ existing: SubscriptionState?,
        _ request: PurchaseRequestBody, at now: Int64, signed: Bool, _ database: TransactionStore
    ) throws -> SubscriptionStep {
        guard let kind = Self.offerKind(option.type), let offer = product.subscription?.offer(kind: kind, id: option.id)
        else {
            throw MockStoreError.offer(.noSuchOffer(productId: product.id, kind: option.type, offerId: option.id))
        }
        try requireEligible(for: offer, kind: kind, existing)
        if kind == .promotional, signed || Self.carriesSignature(option) {
            try checkSignature(option, product: product, request: request, database)
        }
        let context = try settings.purchaseContext(appAccountToken: request.appAccountToken, database)
        return try lifecycleStep { () throws(SubscriptionLifecycleError) in
            try subscriptionLifecycle.redeem(
                offer, productId: product.id, existing: existing, at: now, context: context)
        }
    }

    /// Only auto-renewable subscriptions have offers: an offer with any other product is refused, not ignored.
    static func refuseOfferOnOtherProducts(_ request: PurchaseRequestBody, _ product: CatalogueProduct) throws {
        guard request.offer != nil, product.type != .autoRenewable else { return }
        throw MockStoreError.offer(.notASubscription(productId: product.id))
    }

    /// The kind of customer `existing` makes them for an offer code: never subscribed in the group (new),
    /// subscribed now (existing: active, in a grace period or in billing retry), or lapsed (expired or revoked).
    static func codeEligibility(of existing: SubscriptionState?) -> OfferCodeEligibility {
        guard let existing else { return .new }
        return existing.status == .expired || existing.status == .revoked ? .expired : .existing
    }

    private func requireEligible(
        for offer: SubscriptionOffer, kind: SubscriptionOfferKind, _ existing: SubscriptionState?
    ) throws(MockStoreError) {
        switch kind {
        case .offerCode:
            let customer = Self.codeEligibility(of: existing)
            guard offer.codeEligibility.contains(customer) else {
                let allowed = OfferCodeEligibility.allCases.filter(offer.codeEligibility.contains)
                throw .offer(.offerCodeIneligible(offerId: offer.id ?? "", allowed: allowed, customer: customer))
            }
        case .winBack:
            guard Self.codeEligibility(of: existing) == .expired else {
                throw .offer(.winBackIneligible)
            }
        case .introductory, .promotional:
            return
        }
    }

    private static func carriesSignature(_ option: PurchaseOfferOption) -> Bool {
        option.compactJWS != nil || option.signature != nil || option.keyID != nil
    }

    /// Checks a promotional offer's signature and uses up its nonce.
    private func checkSignature(
        _ option: PurchaseOfferOption, product: CatalogueProduct, request: PurchaseRequestBody,
        _ database: TransactionStore
    ) throws(MockStoreError) {
        let check = PromotionalOfferSignature(
            bundleId: configuration.bundleId, productId: product.id, offerId: option.id,
            appAccountToken: request.appAccountToken,
            nows: [nowMilliseconds, realClock.now().millisecondsSince1970])
        let appTransactionId = String(customerAppTransactions.current.id)
        do throws(PromotionalOfferRefusal) {
            let nonce = try check.check(option, keys: promotionalOfferKeys) { id in
                id == appTransactionId || ((try? database.transaction(id: id)) ?? nil) != nil
            }
            guard promotionalOfferKeys.use(nonce: nonce) else { throw PromotionalOfferRefusal.reusedNonce }
        } catch {
            throw MockStoreError.offer(.signature(error))
        }
    }

    // MARK: Keys

    /// Registers a subscription offer key (its public part, PEM) under `keyId`.
    ///
    /// - Throws: ``MockStoreError`` 400 for an empty id or a PEM that is not a P-256 public key.
    public func registerOfferKey(_ request: TestOfferKeyRequest) throws(MockStoreError) -> TestOfferKeysBody {
        guard !request.keyId.isEmpty, request.keyId.count <= 128 else {
            throw .invalid(.invalidOfferKeyId)
        }
        guard let key = try? P256PublicKey(pemRepresentation: request.publicKey) else {
            throw .invalid(.offerKeyNotP256)
        }
        promotionalOfferKeys.register(key, id: request.keyId)
        return offerKeys()
    }

    /// The ids of the registered subscription offer keys.
    public func offerKeys() -> TestOfferKeysBody {
        TestOfferKeysBody(keyIds: promotionalOfferKeys.ids)
    }
}
