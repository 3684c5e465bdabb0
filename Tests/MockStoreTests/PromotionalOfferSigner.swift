import Foundation
import Signing
import StoreTestControls
import StoreWire
import Testing

/// A developer's subscription offer key in tests: registers its public key with a store
/// (``TestStore/registerOfferKey(_:publicKeyPEM:)``)
/// and signs promotional offers in both of StoreKit's forms, as Apple documents them.
struct PromotionalOfferSigner {
    static let bundleId = "ai.voicedebrief.app"
    let key: P256PrivateKey
    let keyID: String

    init(keyID: String = "TESTOFFERKEY") throws {
        key = try P256PrivateKey.generate()
        self.keyID = keyID
    }

    /// Registers the key's public part with `store` (what `mockstore control offer-key` derives from the .p8 file).
    func register(with store: MockStoreHarness, in directory: TemporaryDirectory) async throws {
        _ = try await store.testStore.registerOfferKey(keyID, publicKeyPEM: key.publicKey.pemRepresentation)
    }

    /// The first form: keyID, nonce, timestamp and the base64 DER signature over Apple's payload.
    func option(
        product: String, offer: String, appAccountToken: String? = nil, nonce: UUID = UUID(),
        timestamp: Int64 = Int64(Date().timeIntervalSince1970 * 1000), bundleId: String = Self.bundleId
    ) throws -> PurchaseOfferOption {
        let payload = [
            bundleId, keyID, product, offer, (appAccountToken ?? "").lowercased(), nonce.uuidString.lowercased(),
            String(timestamp),
        ].joined(separator: "\u{2063}")
        let signature = try key.derSignature(for: Array(payload.utf8))
        return PurchaseOfferOption(
            type: .promotional, id: offer, keyID: keyID, nonce: nonce.uuidString.lowercased(), timestamp: timestamp,
            signature: Data(signature).base64EncodedString())
    }

    /// The second form: an ES256 JWS with the claims of `PromotionalOfferV2SignatureCreator`.
    func jwsOption(
        product: String, offer: String, transactionId: String? = nil, issuedAt: Date = Date(),
        audience: String = "promotional-offer", nonce: String = UUID().uuidString.lowercased()
    ) throws -> PurchaseOfferOption {
        var claims: [String: Any] = [
            "bid": Self.bundleId, "iss": "test-issuer", "aud": audience, "iat": Int64(issuedAt.timeIntervalSince1970),
            "nonce": nonce, "productId": product, "offerIdentifier": offer,
        ]
        if let transactionId { claims["transactionId"] = transactionId }
        let payload = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
        let signer = try CompactJWSSigner(.es256(key: key, x5c: nil, keyID: keyID), typ: "JWT")
        return PurchaseOfferOption(type: .promotional, id: offer, compactJWS: try signer.sign(payload: Array(payload)))
    }
}

extension MockStoreHarness {
    /// `POST /storekit/v1/purchases` of `product` with `offer`.
    func purchase(_ product: String, offer: PurchaseOfferOption, appAccountToken: String? = nil) async throws
        -> Response
    {
        let body = PurchaseRequestBody(productId: product, appAccountToken: appAccountToken, offer: offer)
        return try await request("POST", DeviceAPI.purchase.path(), body: Array(try JSONEncoder().encode(body)))
    }
}
