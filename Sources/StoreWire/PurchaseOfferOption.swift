/// A purchase option naming a subscription offer (StoreKit's `Product.PurchaseOption.promotionalOffer`,
/// `.winBackOffer`, and a redeemed offer code): `type` `promotional`, `offerCode` or `winBack`, and the offer's id
/// (an offer code's reference name).
///
/// A promotional offer bought through the device API carries the developer's signature, in either of StoreKit's
/// forms: `keyID`, `nonce`, `timestamp` and `signature` (`promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`)
/// or `compactJWS` (`promotionalOffer(_:compactJWS:)`, iOS 18.4).
public struct PurchaseOfferOption: Codable, Sendable, Equatable {
    public var type: PurchaseOfferKind
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
        type: PurchaseOfferKind, id: String, keyID: String? = nil, nonce: String? = nil, timestamp: Int64? = nil,
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
