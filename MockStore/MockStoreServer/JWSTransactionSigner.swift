import Signing
import StoreWire

/// Signs transactions as compact JWS with the `Signing` module: ES256 by a test CA's leaf (Apple's shape,
/// `x5c` = leaf, intermediate, root), HS256 with a shared secret, or unsigned (`alg` `none`, for negative tests).
public struct JWSTransactionSigner: TransactionSigner {
    private let signer: JWSSigner

    /// ES256 by `authority`'s leaf key, with its chain in `x5c`.
    public static func es256(authority: TestCertificateAuthority) -> JWSTransactionSigner {
        JWSTransactionSigner(signer: .es256(key: authority.leafKey, x5c: authority.chain, keyID: nil))
    }

    /// HS256 with `secret` (its bytes exactly as given).
    public static func hs256(secret: [UInt8]) -> JWSTransactionSigner {
        JWSTransactionSigner(signer: .hs256(secret: secret))
    }

    /// `alg` `none` with an empty signature: verifiers must refuse it.
    public static let unsigned = JWSTransactionSigner(signer: .none)

    public func sign(_ payload: SignedTransactionPayload) throws -> String {
        try sign(json: try HTTPResponse.encode(payload))
    }

    public func sign(json: [UInt8]) throws -> String {
        try CompactJWS.sign(payload: json, typ: "JWT", with: signer)
    }
}
