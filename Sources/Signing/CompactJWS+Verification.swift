import Foundation

extension CompactJWS {
    /// Verifies an HS256 JWS with `secret`.
    ///
    /// - Throws: ``SigningError``: `algorithmMismatch` unless `alg` is "HS256" ("none" is never accepted);
    ///   `invalidArgument` for an empty secret; `invalidSignature` if the MAC differs (compared in constant time).
    public func verifyHS256(secret: [UInt8]) throws {
        try requireAlgorithm("HS256")
        guard !secret.isEmpty else {
            throw SigningError.invalidArgument(.emptyVerificationSecret)
        }
        let expected = try HMACSHA256.authenticationCode(for: signingInput, key: secret)
        guard ConstantTime.equals(expected, signature) else {
            throw SigningError.invalidSignature(.hs256Mismatch)
        }
    }

    /// Verifies an ES256 JWS with `publicKey`.
    ///
    /// - Throws: ``SigningError``: `algorithmMismatch` unless `alg` is "ES256"; `invalidSignature` if the signature
    ///   is not 64 bytes or does not verify.
    public func verifyES256(publicKey: P256PublicKey) throws {
        try requireAlgorithm("ES256")
        guard signature.count == ECDSASignatureFormat.rawByteCount else {
            throw SigningError.invalidSignature(.es256Length(bytes: signature.count))
        }
        guard publicKey.isValidSignature(signature, for: signingInput) else {
            throw SigningError.invalidSignature(.es256Mismatch)
        }
    }

    /// Verifies an ES256 JWS signed by the leaf of its `x5c` chain, as Apple's verifiers do.
    ///
    /// Requires `alg` "ES256" and an `x5c` of 3 standard-base64 DER certificates; verifies that chain with
    /// `verifier` at `date` (pass the transaction's signing date to check a receipt as of when it was signed), then
    /// the signature with the leaf's public key.
    /// - Throws: ``SigningError``: `algorithmMismatch`, `malformedJWS` (no or bad `x5c`), `invalidCertificate`,
    ///   `invalidChain`, `invalidKey` or `invalidSignature`.
    public func verifyES256(chain verifier: CertificateChainVerifier, at date: Date) throws {
        try requireAlgorithm("ES256")
        guard let x5c = header.x5c, !x5c.isEmpty else {
            throw SigningError.malformedJWS(.noX5C)
        }
        guard x5c.count == 3 else {
            throw SigningError.invalidChain(.x5cCount(x5c.count))
        }
        var certificates: [Certificate] = []
        for (index, entry) in x5c.enumerated() {
            guard let der = Data(base64Encoded: entry) else {
                throw SigningError.malformedJWS(.x5cNotBase64(index: index))
            }
            do {
                certificates.append(try Certificate(derRepresentation: Array(der)))
            } catch let error as SigningError {
                throw SigningError.chainCertificate(index: index, error)
            }
        }
        try verifier.verify(certificates, at: date)
        try verifyES256(publicKey: certificates[0].publicKey())
    }

    private func requireAlgorithm(_ expected: String) throws {
        guard header.alg == expected else {
            throw SigningError.algorithmMismatch(found: header.alg, required: expected)
        }
    }
}
