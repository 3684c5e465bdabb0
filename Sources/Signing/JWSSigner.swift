/// How ``CompactJWS/sign(payload:typ:with:)`` signs.
public enum JWSSigner: Sendable {
    /// HMAC-SHA256 with a shared secret (RFC 7518 section 3.2).
    case hs256(secret: [UInt8])
    /// ECDSA P-256 with SHA-256 (RFC 7518 section 3.4), optionally with an `x5c` chain `[leaf, intermediate, root]`
    /// (whose leaf must hold `key`'s public key) and a `kid`.
    case es256(key: P256PrivateKey, x5c: [Certificate]?, keyID: String?)
    /// An unsecured JWS (`"alg":"none"`, empty signature), for a mock store configured without signing. Never
    /// accepted by any verify function.
    case none
}
