#if canImport(CryptoKit)
    import CryptoKit
    import Foundation

    /// Conversion between the two encodings of a P-256 ECDSA signature, through CryptoKit's
    /// `P256.Signing.ECDSASignature`, on Apple platforms.
    ///
    /// DER is `ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }`; JWS (RFC 7518 section 3.4) and IEEE P1363
    /// use the raw form, `r` then `s`, each a 32-byte big-endian number (CryptoKit's `rawRepresentation`). Written
    /// from Apple's documentation and never compiled on Linux. CryptoKit does not say why a DER value is refused, so
    /// where the OpenSSL side names the fault (a negative or too long scalar) this side says only `der(.invalid)`.
    public enum ECDSASignatureFormat {
        /// The length of a raw P-256 signature, `r || s`.
        public static let rawByteCount = 64

        /// Returns the raw 64-byte `r || s` form of a DER signature.
        ///
        /// - Throws: ``SigningError`` (`invalidSignature`) if CryptoKit cannot read `der`, or if CryptoKit's own DER
        ///   encoding of what it read is not `der` (BER forms, trailing bytes), so each signature has one encoding.
        public static func raw(fromDER der: [UInt8]) throws -> [UInt8] {
            guard !der.isEmpty else {
                throw SigningError.invalidSignature(.der(.empty))
            }
            let signature: P256.Signing.ECDSASignature
            do {
                signature = try P256.Signing.ECDSASignature(derRepresentation: der)
            } catch {
                throw SigningError.invalidSignature(.der(.invalid))
            }
            guard Array(signature.derRepresentation) == der else {
                throw SigningError.invalidSignature(.notCanonicalDER)
            }
            let raw = Array(signature.rawRepresentation)
            guard raw.count == rawByteCount else {
                throw SigningError.invalidSignature(.scalarTooLong)
            }
            return raw
        }

        /// Returns the DER form of a raw 64-byte `r || s` signature.
        ///
        /// - Throws: ``SigningError`` (`invalidSignature`) if `raw` is not 64 bytes or CryptoKit refuses it.
        public static func der(fromRaw raw: [UInt8]) throws -> [UInt8] {
            guard raw.count == rawByteCount else {
                throw SigningError.invalidSignature(.rawLength(bytes: raw.count))
            }
            do {
                return Array(try P256.Signing.ECDSASignature(rawRepresentation: raw).derRepresentation)
            } catch {
                throw SigningError.invalidSignature(.der(.invalid))
            }
        }
    }
#endif
