import StoreKitCatalogue
import StoreWire

extension MockStoreError {
    /// A subscription offer StoreKit would refuse; the words name StoreKit's `Product.PurchaseError`.
    public enum OfferRefusal: Equatable, Sendable {
        /// The product has no offer of that kind and id.
        case noSuchOffer(productId: String, kind: PurchaseOfferKind, offerId: String)
        /// Only auto-renewable subscriptions have offers.
        case notASubscription(productId: String)
        /// An offer code for other kinds of customer of the group than this one.
        case offerCodeIneligible(offerId: String, allowed: [OfferCodeEligibility], customer: OfferCodeEligibility)
        /// A win-back offer for a customer whose subscription in the group has not lapsed.
        case winBackIneligible
        /// A promotional offer's signature refused.
        case signature(PromotionalOfferRefusal)

        /// The words of the refusal.
        var message: String {
            switch self {
            case .noSuchOffer(let productId, let kind, let offerId):
                "Invalid offer (Product.PurchaseError.invalidOfferIdentifier): \(productId) has no \(kind) "
                    + "offer \"\(offerId)\" (types: promotional, offerCode, winBack)."
            case .notASubscription(let productId):
                "Invalid offer (Product.PurchaseError.invalidOfferIdentifier): \(productId) is not an auto-renewable "
                    + "subscription; only those have offers."
            case .offerCodeIneligible(let offerId, let allowed, let customer):
                "Not eligible (Product.PurchaseError.ineligibleForOffer): offer code \"\(offerId)\" is for "
                    + "\(allowed.map(\.rawValue).joined(separator: ", ")) customers of the group; this customer is "
                    + "\(customer.rawValue)."
            case .winBackIneligible:
                "Not eligible (Product.PurchaseError.ineligibleForOffer): win-back offers are for customers whose "
                    + "subscription in the group has lapsed."
            case .signature(let refusal): Self.signatureMessage(refusal)
            }
        }

        private static func signatureMessage(_ refusal: PromotionalOfferRefusal) -> String {
            let invalid = "Invalid offer signature (Product.PurchaseError.invalidOfferSignature): "
            return switch refusal {
            case .missingParameters:
                "Missing offer signature (Product.PurchaseError.missingOfferParameters): a promotional offer needs "
                    + "the developer's signature (keyID, nonce, timestamp and signature, or compactJWS)."
            case .unknownKey(let id):
                invalid + "no subscription offer key \"\(id)\" is registered (mockstore control offer-key)."
            case .stale: invalid + "the signature is more than 24 hours old, or dated in the future."
            case .reusedNonce: invalid + "its nonce was used already; each signature is good for one purchase."
            case .invalid(let why): invalid + "\(why)."
            }
        }
    }
}
