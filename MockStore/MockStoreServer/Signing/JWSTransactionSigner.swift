import MockStoreHTTP
import Signing
import StoreWire

/// Signs transactions as compact JWS with the `Signing` module: ES256 by a test CA's leaf (Apple's shape,
/// `x5c` = leaf, intermediate, root), HS256 with a shared secret, or unsigned (`alg` `none`, for negative tests).
///
/// The signer is prepared once (``CompactJWSSigner``: its checks run and its header is encoded when the store
/// starts), since the store signs while holding its database lock; a signer that cannot be prepared makes every
/// signing fail with the reason.
public struct JWSTransactionSigner: TransactionSigner {
    private let signer: Result<CompactJWSSigner, any Error>

    private init(_ signer: JWSSigner) {
        // Apple's header is `alg` and `x5c` only: no `typ`, no `kid`.
        self.signer = Result { try CompactJWSSigner(signer, typ: nil) }
    }

    /// ES256 by `authority`'s leaf key, with its chain in `x5c`.
    public static func es256(authority: TestCertificateAuthority) -> JWSTransactionSigner {
        JWSTransactionSigner(.es256(key: authority.leafKey, x5c: authority.chain, keyID: nil))
    }

    /// HS256 with `secret` (its bytes exactly as given).
    public static func hs256(secret: [UInt8]) -> JWSTransactionSigner {
        JWSTransactionSigner(.hs256(secret: secret))
    }

    /// `alg` `none` with an empty signature: verifiers must refuse it.
    public static let unsigned = JWSTransactionSigner(.none)

    public func sign(_ payload: SignedTransactionPayload) throws -> String {
        try sign(json: try HTTPResponse.encode(payload))
    }

    public func sign(json: [UInt8]) throws -> String {
        try signer.get().sign(payload: json)
    }
}
