// The OpenSSL side, for Linux. Where CryptoKit is (Apple platforms, no OpenSSL) CryptoKit/ holds this type.
#if !canImport(CryptoKit)
    import COpenSSL

    /// Conversion between the two encodings of a P-256 ECDSA signature.
    ///
    /// OpenSSL produces and consumes DER (`ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }`); JWS (RFC 7518
    /// section 3.4) and IEEE P1363 use the raw form: `r` then `s`, each as a 32-byte big-endian number.
    public enum ECDSASignatureFormat {
        /// The length of a raw P-256 signature, `r || s`.
        public static let rawByteCount = 64

        private static let scalarByteCount = 32

        /// Returns the raw 64-byte `r || s` form of a DER signature.
        ///
        /// - Throws: ``SigningError`` (`invalidSignature`) if `der` is not exactly one canonical DER `ECDSA-Sig-Value`,
        ///   or if `r` or `s` is negative or longer than 32 bytes.
        public static func raw(fromDER der: [UInt8]) throws -> [UInt8] {
            let signature = try DER.decode(
                der,
                failure: { .invalidSignature(.der($0), openSSLReason: $1) },
                decoder: { cursor, length in d2i_ECDSA_SIG(nil, cursor, length) },
                free: { ECDSA_SIG_free($0) }
            )
            defer { ECDSA_SIG_free(signature) }

            // Re-encoding must give back the input: rejects BER forms (long-form lengths, padded integers) that
            // OpenSSL's parser tolerates, so each signature has one encoding.
            let canonical = try DER.encode("ECDSA signature") { i2d_ECDSA_SIG(signature, $0) }
            guard canonical == der else {
                throw SigningError.invalidSignature(.notCanonicalDER)
            }

            var r: OpaquePointer?
            var s: OpaquePointer?
            ECDSA_SIG_get0(signature, &r, &s)
            guard let r, let s else {
                throw SigningError.invalidSignature(.missingScalars, openSSLReason: OpenSSLErrorQueue.drain())
            }
            guard BN_is_negative(r) == 0, BN_is_negative(s) == 0 else {
                throw SigningError.invalidSignature(.negativeScalar)
            }
            var raw = [UInt8](repeating: 0, count: rawByteCount)
            let written = raw.withUnsafeMutableBufferPointer { buffer in
                (
                    BN_bn2binpad(r, buffer.baseAddress, Int32(scalarByteCount)),
                    BN_bn2binpad(s, buffer.baseAddress! + scalarByteCount, Int32(scalarByteCount))
                )
            }
            guard written.0 == Int32(scalarByteCount), written.1 == Int32(scalarByteCount) else {
                throw SigningError.invalidSignature(.scalarTooLong)
            }
            return raw
        }

        /// Returns the DER form of a raw 64-byte `r || s` signature.
        ///
        /// Only the format is converted: zero or out-of-range values are encoded as given and rejected by verification.
        /// - Throws: ``SigningError`` (`invalidSignature`) if `raw` is not 64 bytes.
        public static func der(fromRaw raw: [UInt8]) throws -> [UInt8] {
            guard raw.count == rawByteCount else {
                throw SigningError.invalidSignature(.rawLength(bytes: raw.count))
            }
            guard let signature = ECDSA_SIG_new() else {
                throw SigningError.failedCall("ECDSA_SIG_new")
            }
            defer { ECDSA_SIG_free(signature) }

            let scalars = raw.withUnsafeBufferPointer { buffer in
                (
                    BN_bin2bn(buffer.baseAddress, Int32(scalarByteCount), nil),
                    BN_bin2bn(buffer.baseAddress! + scalarByteCount, Int32(scalarByteCount), nil)
                )
            }
            guard let r = scalars.0, let s = scalars.1 else {
                BN_free(scalars.0)
                BN_free(scalars.1)
                throw SigningError.failedCall("BN_bin2bn")
            }
            // On success ECDSA_SIG_set0 takes ownership of r and s; on failure they are still ours.
            guard ECDSA_SIG_set0(signature, r, s) == 1 else {
                BN_free(r)
                BN_free(s)
                throw SigningError.failedCall("ECDSA_SIG_set0")
            }
            return try DER.encode("ECDSA signature") { i2d_ECDSA_SIG(signature, $0) }
        }
    }
#endif
