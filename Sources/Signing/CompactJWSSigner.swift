import Foundation

/// A ``JWSSigner`` made ready to sign many payloads: its checks run and its protected header is encoded once.
///
/// ``CompactJWS/sign(payload:typ:with:)`` does all of this on every call; for an ES256 signer with an `x5c` chain
/// that is most of the cost (the leaf's public key is DER-encoded and compared, and the chain base64-encoded into
/// the header, each time). Signing with a prepared signer gives the same JWS, byte for byte, as that function.
public struct CompactJWSSigner: Sendable {
    private let signer: JWSSigner
    /// `base64url(header) "."`, the start of every signing input.
    private let encodedHeader: String

    /// Checks `signer` and encodes its header with `typ`.
    ///
    /// - Throws: ``SigningError`` (`invalidArgument`) for an empty HS256 secret or an `x5c` whose leaf does not hold
    ///   the signing key; OpenSSL failures.
    public init(_ signer: JWSSigner, typ: String? = "JWT") throws {
        let header: JWSHeader
        switch signer {
        case .hs256(let secret):
            guard !secret.isEmpty else {
                throw SigningError.invalidArgument(.emptySigningSecret)
            }
            header = JWSHeader(alg: "HS256", typ: typ)
        case .es256(let key, let x5c, let keyID):
            if let leaf = x5c?.first {
                guard try leaf.publicKey().derRepresentation == key.publicKey.derRepresentation else {
                    throw SigningError.invalidArgument(.leafDoesNotHoldSigningKey(leaf: leaf.name))
                }
            }
            let chain = x5c?.map { Data($0.derRepresentation).base64EncodedString() }
            header = JWSHeader(alg: "ES256", typ: typ, kid: keyID, x5c: chain)
        case .none:
            header = JWSHeader(alg: "none", typ: typ)
        }
        self.signer = signer
        self.encodedHeader = Base64URL.encode(header.compactJSON()) + "."
    }

    /// Signs `payload` (its bytes encoded exactly as given) and returns the compact JWS.
    ///
    /// - Throws: OpenSSL failures.
    public func sign(payload: [UInt8]) throws -> String {
        let signingInput = encodedHeader + Base64URL.encode(payload)
        let signature: [UInt8]
        switch signer {
        case .hs256(let secret):
            signature = try HMACSHA256.authenticationCode(for: Array(signingInput.utf8), key: secret)
        case .es256(let key, _, _):
            signature = try key.signature(for: Array(signingInput.utf8))
        case .none:
            signature = []
        }
        return signingInput + "." + Base64URL.encode(signature)
    }
}
