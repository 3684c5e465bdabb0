import Foundation
import Signing
import StoreWire

/// Checks the developer's signature of a promotional offer as the App Store does, in both of StoreKit's forms.
///
/// The first form (`promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`) is an ECDSA P-256 SHA-256
/// signature, DER and base64, over `bundleId · keyID · productId · offerID · appAccountToken · nonce · timestamp`
/// joined by U+2063 (the token and nonce lowercased, the token empty when there is none), the payload Apple's
/// `PromotionalOfferSignatureCreator` signs. The second (`promotionalOffer(_:compactJWS:)`) is an ES256 JWS whose
/// header `kid` names the key and whose claims are `bid`, `aud` `promotional-offer`, `iat`, `nonce`, `productId`,
/// `offerIdentifier` and, optionally, `transactionId` (`PromotionalOfferV2SignatureCreator`).
///
/// Either form is refused when its key is not registered, it does not verify, it is for another app, product or
/// offer, it is more than 24 hours old (or made in the future), or its nonce was used before.
struct PromotionalOfferSignature {
    /// What the signature must be about.
    var bundleId: String
    var productId: String
    var offerId: String
    var appAccountToken: String?
    /// "Now" on the store's clocks, UNIX milliseconds: a signature dated near any of them is current (a developer's
    /// server signs on real time, while a test may have moved the store's virtual clock on).
    var nows: [Int64]

    /// How long a signature stays good: 24 hours from its timestamp, as Apple documents.
    static let validity: Int64 = 24 * 3_600_000
    /// How far ahead of the store's clock a timestamp may be (clocks of two machines differ a little).
    static let futureTolerance: Int64 = 5 * 60_000
    /// The separator of the first form's payload, INVISIBLE SEPARATOR.
    static let separator = "\u{2063}"
    /// The JWS form's audience.
    static let audience = "promotional-offer"

    /// Checks `option`'s signature; returns the nonce it used (to be marked used by the caller).
    ///
    /// - Throws: ``PromotionalOfferRefusal``.
    func check(
        _ option: PurchaseOfferOption, keys: PromotionalOfferKeys, isCustomerTransaction: (String) -> Bool
    ) throws(PromotionalOfferRefusal) -> String {
        if let compact = option.compactJWS {
            return try checkJWS(compact, keys: keys, isCustomerTransaction: isCustomerTransaction)
        }
        guard let keyID = option.keyID, let nonceText = option.nonce, let timestamp = option.timestamp,
            let signatureText = option.signature
        else {
            throw .missingParameters
        }
        guard let key = keys.key(id: keyID) else { throw .unknownKey(keyID) }
        guard let nonce = UUID(uuidString: nonceText) else { throw .invalid("the nonce is not a UUID") }
        try requireCurrent(timestamp)
        let payload = [
            bundleId, keyID, productId, offerId, (appAccountToken ?? "").lowercased(), nonce.uuidString.lowercased(),
            String(timestamp),
        ].joined(separator: Self.separator)
        guard let der = Data(base64Encoded: signatureText).map(Array.init),
            let raw = try? ECDSASignatureFormat.raw(fromDER: der),
            key.isValidSignature(raw, for: Array(payload.utf8))
        else {
            throw .invalid("the signature does not verify with key \"\(keyID)\" for this app, product, offer and token")
        }
        return nonce.uuidString.lowercased()
    }

    /// The claims of the JWS form.
    private struct Claims: Decodable {
        var bid: String?
        var aud: String?
        var iat: Int64?
        var nonce: String?
        var productId: String?
        var offerIdentifier: String?
        var transactionId: String?
    }

    private func checkJWS(
        _ compact: String, keys: PromotionalOfferKeys, isCustomerTransaction: (String) -> Bool
    ) throws(PromotionalOfferRefusal) -> String {
        guard let jws = try? CompactJWS.parse(compact) else { throw .invalid("the compact JWS does not parse") }
        guard let keyID = jws.header.kid else { throw .invalid("the JWS header names no key (kid)") }
        guard let key = keys.key(id: keyID) else { throw .unknownKey(keyID) }
        guard (try? jws.verifyES256(publicKey: key)) != nil else {
            throw .invalid("the JWS is not an ES256 signature of key \"\(keyID)\"")
        }
        guard let claims = try? JSONDecoder().decode(Claims.self, from: Data(jws.payload)) else {
            throw .invalid("the JWS payload is not the claims of a promotional offer")
        }
        guard claims.aud == Self.audience else { throw .invalid("the JWS audience (aud) is not promotional-offer") }
        guard claims.bid == bundleId else { throw .invalid("the JWS is for another app (bid)") }
        guard claims.productId == productId else { throw .invalid("the JWS is for another product") }
        guard claims.offerIdentifier == offerId else { throw .invalid("the JWS is for another offer") }
        guard let iat = claims.iat else { throw .invalid("the JWS has no issue time (iat)") }
        let (issued, overflow) = iat.multipliedReportingOverflow(by: 1000)
        guard !overflow else { throw .stale }
        try requireCurrent(issued)
        guard let nonce = claims.nonce, !nonce.isEmpty else { throw .invalid("the JWS has no nonce") }
        if let transaction = claims.transactionId, !isCustomerTransaction(transaction) {
            throw .invalid("the JWS names a transaction that is not this customer's")
        }
        return nonce.lowercased()
    }

    private func requireCurrent(_ timestamp: Int64) throws(PromotionalOfferRefusal) {
        let current = nows.contains { now in
            timestamp <= now &+ Self.futureTolerance && timestamp >= now &- Self.validity
        }
        guard current else { throw .stale }
    }
}

/// Why a promotional offer signature is refused.
public enum PromotionalOfferRefusal: Error, Equatable, Sendable {
    /// No signature at all (StoreKit's `missingOfferParameters`).
    case missingParameters
    /// No subscription offer key of that id is registered.
    case unknownKey(String)
    /// Older than 24 hours, or dated in the future.
    case stale
    /// The nonce was used by an earlier purchase.
    case reusedNonce
    /// Malformed, or not a signature of this offer.
    case invalid(String)
}
