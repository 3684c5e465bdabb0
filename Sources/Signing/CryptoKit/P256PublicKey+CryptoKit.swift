#if canImport(CryptoKit)
    import CryptoKit
    import Foundation

    /// A P-256 (secp256r1) ECDSA public key: CryptoKit's `P256.Signing.PublicKey`, on Apple platforms.
    ///
    /// The same API as the OpenSSL side (P256PublicKey.swift) and fed the same Wycheproof-style vectors
    /// (`SigningTests.ECDSAVectorTests`). Written from Apple's documentation and never compiled on Linux.
    /// `@unchecked Sendable` because the key is an immutable value, never changed after `init`.
    public final class P256PublicKey: @unchecked Sendable {
        let key: P256.Signing.PublicKey

        /// The SubjectPublicKeyInfo DER (RFC 5480) of the key, named-curve form (CryptoKit's `derRepresentation`).
        public let derRepresentation: [UInt8]

        init(_ key: P256.Signing.PublicKey) {
            self.key = key
            derRepresentation = Array(key.derRepresentation)
        }

        /// Creates a key from SubjectPublicKeyInfo DER.
        ///
        /// - Throws: ``SigningError`` (`invalidKey`): `pointNotOnCurve` for the named-curve form of an uncompressed
        ///   point that CryptoKit refuses; `der(.trailingBytes)` for a key followed by more bytes; `der(.invalid)`
        ///   for anything else CryptoKit cannot read (another curve, explicit parameters: CryptoKit does not say).
        public convenience init(derRepresentation: [UInt8]) throws {
            guard !derRepresentation.isEmpty else {
                throw SigningError.invalidKey(.der(.empty))
            }
            let uncompressed =
                derRepresentation.count == Self.spkiPrefix.count + 65 && derRepresentation.starts(with: Self.spkiPrefix)
                && derRepresentation[Self.spkiPrefix.count] == 0x04
            let key: P256.Signing.PublicKey
            do {
                key = try P256.Signing.PublicKey(derRepresentation: derRepresentation)
            } catch {
                throw SigningError.invalidKey(uncompressed ? .pointNotOnCurve : .der(.invalid))
            }
            // One DER value must not carry hidden extra data (the OpenSSL side refuses trailing bytes too).
            let canonical = Array(key.derRepresentation)
            if derRepresentation.count > canonical.count, derRepresentation.starts(with: canonical) {
                throw SigningError.invalidKey(.der(.trailingBytes(derRepresentation.count - canonical.count)))
            }
            self.init(key)
        }

        /// Creates a key from a SubjectPublicKeyInfo PEM block (`-----BEGIN PUBLIC KEY-----`).
        public convenience init(pemRepresentation: String) throws {
            guard let der = PEM.decode(label: "PUBLIC KEY", from: pemRepresentation) else {
                throw SigningError.invalidKey(.noPEM(kind: "PUBLIC KEY"))
            }
            try self.init(derRepresentation: der)
        }

        /// Returns whether `rawSignature` (`r || s`, 64 bytes) is a valid ECDSA P-256 signature over
        /// SHA-256(`message`).
        ///
        /// Any other length, and any signature CryptoKit refuses to read or verify, gives `false`.
        public func isValidSignature(_ rawSignature: [UInt8], for message: [UInt8]) -> Bool {
            guard rawSignature.count == ECDSASignatureFormat.rawByteCount,
                let signature = try? P256.Signing.ECDSASignature(rawRepresentation: rawSignature)
            else {
                return false
            }
            return key.isValidSignature(signature, for: message)
        }
    }
#endif
