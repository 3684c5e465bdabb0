// OpenSSL only, for Linux: the app does not need it, and Apple platforms have no OpenSSL to link.
#if !canImport(CryptoKit)
    import COpenSSL

    /// A P-256 public key for verifying only: the uncompressed point of the named-curve SubjectPublicKeyInfo this
    /// package writes, on a copy of one shared group, verified by OpenSSL's `EC_KEY` (`ECDSA_do_verify` over the
    /// SHA-256 digest).
    ///
    /// For verifying one signature each of very many keys (`credit pnl --summaries` reads a key a summary): making a
    /// ``P256PublicKey`` imports the key through the provider, which makes the whole group again from its parameters,
    /// and each verification then fetches its algorithms again; together they cost as much as the verification itself.
    /// It verifies exactly what ``P256PublicKey/isValidSignature(_:for:)`` verifies (tested so:
    /// `SigningTests.P256PointKeyTests`).
    ///
    /// Owns its `EC_KEY` and frees it in `deinit`. `@unchecked Sendable`: immutable after `init`, and OpenSSL allows
    /// concurrent verification with one key.
    public final class P256PointKey: @unchecked Sendable {
        private let key: OpaquePointer

        /// The key of `derRepresentation` when it is the named-curve SubjectPublicKeyInfo of an uncompressed point (the
        /// only form this package writes); nil for any other form, which ``P256PublicKey/init(derRepresentation:)``
        /// reads.
        ///
        /// - Throws: ``SigningError`` (`invalidKey`) if the point is not on the curve, as ``P256PublicKey`` does.
        public init?(derRepresentation der: [UInt8]) throws {
            let prefix = P256PublicKey.spkiPrefix
            guard der.count == prefix.count + 65, der.starts(with: prefix), der[prefix.count] == 0x04 else {
                return nil
            }
            let group = try P256Group.shared.group
            let made = der.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.flatMap { COpenSSL_P256_point_key(group, $0 + prefix.count, 65) }
            }
            guard let made else {
                OpenSSLErrorQueue.clear()
                throw SigningError.invalidKey(.pointNotOnCurve)
            }
            key = made
        }

        deinit {
            COpenSSL_P256_point_key_free(key)
        }

        /// Whether `rawSignature` (`r || s`, 64 bytes) is a valid ECDSA P-256 signature over SHA-256(`message`).
        ///
        /// Any other length, `r` or `s` of zero or not below the group order, and every OpenSSL failure give `false`.
        public func isValidSignature(_ rawSignature: [UInt8], for message: [UInt8]) -> Bool {
            guard rawSignature.count == ECDSASignatureFormat.rawByteCount else { return false }
            let digest = SHA256.hash(message)
            let status = rawSignature.withUnsafeBufferPointer { raw in
                digest.withUnsafeBufferPointer { digest -> Int32 in
                    guard let signature = raw.baseAddress, let digest = digest.baseAddress else { return -1 }
                    return COpenSSL_P256_verify_digest(key, digest, signature, signature + 32)
                }
            }
            // 1 is valid; 0 is a wrong signature and -1 a failure. Neither is an error to report.
            guard status == 1 else {
                OpenSSLErrorQueue.clear()
                return false
            }
            return true
        }
    }

    /// The P-256 group every ``P256PointKey`` copies, made once per process.
    ///
    /// `@unchecked Sendable`: the group is made in `init` and only ever read (copied) after, which OpenSSL allows from
    /// many threads at once.
    private final class P256Group: @unchecked Sendable {
        static let shared = P256Group()

        private let made: OpaquePointer?

        private init() { made = COpenSSL_P256_group_new() }

        deinit {
            if let made { EC_GROUP_free(made) }
        }

        var group: OpaquePointer {
            get throws {
                guard let made else { throw SigningError.failedCall("EC_GROUP_new_by_curve_name(P-256)") }
                return made
            }
        }
    }
#endif
