import StoreWire

/// `POST /test/v1/offer-keys`: a subscription offer key the store checks promotional offer signatures with (the
/// key App Store Connect, or Xcode's Subscription Offers Key, gives the developer; only its public part here).
public struct TestOfferKeyRequest: Codable, Sendable, Equatable {
    /// The key's id, as the signature names it (`keyID`, or the JWS header's `kid`).
    public var keyId: String
    /// The public key, PEM (`-----BEGIN PUBLIC KEY-----`).
    public var publicKey: String

    public init(keyId: String, publicKey: String) {
        self.keyId = keyId
        self.publicKey = publicKey
    }
}

/// `GET /test/v1/offer-keys`: the ids of the keys registered.
public struct TestOfferKeysBody: Codable, Sendable, Equatable {
    public var keyIds: [String]

    public init(keyIds: [String]) { self.keyIds = keyIds }
}
