// The OpenSSL side, for Linux. Where CryptoKit is (Apple platforms, no OpenSSL) CryptoKit/ holds this type.
#if !canImport(CryptoKit)
    import COpenSSL

    /// A P-256 (secp256r1) ECDSA public key.
    ///
    /// Owns an OpenSSL `EVP_PKEY` and frees it in `deinit`. `@unchecked Sendable` because the object is immutable after
    /// `init` (the key and its cached DER never change) and OpenSSL allows concurrent verification with one `EVP_PKEY`.
    public final class P256PublicKey: @unchecked Sendable {
        let key: OpaquePointer

        /// The SubjectPublicKeyInfo DER (RFC 5480) of the key, named-curve form.
        public let derRepresentation: [UInt8]

        /// Takes ownership of `key` (freeing it if it is rejected). `derRepresentation`, when given, is the key's
        /// SubjectPublicKeyInfo already known (not encoded again).
        init(taking key: OpaquePointer, derRepresentation knownDER: [UInt8]? = nil) throws {
            do {
                try P256KeyValidation.requireP256(key, what: "public key")
                derRepresentation = try knownDER ?? DER.encode("public key") { i2d_PUBKEY(key, $0) }
            } catch {
                EVP_PKEY_free(key)
                throw error
            }
            self.key = key
        }

        deinit {
            EVP_PKEY_free(key)
        }

        /// The public half of the P-256 private key `privateKey` (borrowed): its point read and imported, the DER
        /// put together from the fixed prefix, so that a new key costs no trip through OpenSSL's encoders and decoders
        /// (a test CA makes three at every `--ephemeral` start). A point in another form takes the DER path.
        convenience init(publicPartOf privateKey: OpaquePointer) throws {
            var point = [UInt8](repeating: 0, count: 65)
            var length = 0
            let read = point.withUnsafeMutableBufferPointer { buffer in
                EVP_PKEY_get_octet_string_param(
                    privateKey, OSSL_PKEY_PARAM_PUB_KEY, buffer.baseAddress, buffer.count, &length)
            }
            guard read == 1, length == 65, point[0] == 0x04,
                let key = point.withUnsafeBufferPointer({ COpenSSL_P256_public_key_from_point($0.baseAddress, 65) })
            else {
                OpenSSLErrorQueue.clear()
                try self.init(
                    derRepresentation: try DER.encode("public part of the private key") { i2d_PUBKEY(privateKey, $0) })
                return
            }
            try self.init(taking: key, derRepresentation: Self.spkiPrefix + point)
        }

        /// Creates a key from SubjectPublicKeyInfo DER.
        ///
        /// - Throws: ``SigningError`` (`invalidKey`) if the DER does not parse, has trailing bytes, the point is not on
        ///   the curve, or the key is not a named-curve P-256 key.
        public convenience init(derRepresentation: [UInt8]) throws {
            // The named-curve SubjectPublicKeyInfo of an uncompressed point, the only form this package writes: the
            // point imported directly (on the curve or refused), as d2i_PUBKEY would take it, without OpenSSL's decoder
            // (a few hundred microseconds a key; `credit pnl --summaries` reads one key a summary).
            if derRepresentation.count == Self.spkiPrefix.count + 65, derRepresentation.starts(with: Self.spkiPrefix),
                derRepresentation[Self.spkiPrefix.count] == 0x04
            {
                let point = Array(derRepresentation[Self.spkiPrefix.count...])
                guard
                    let key = point.withUnsafeBufferPointer({ COpenSSL_P256_public_key_from_point($0.baseAddress, 65) })
                else {
                    OpenSSLErrorQueue.clear()
                    throw SigningError.invalidKey(.pointNotOnCurve)
                }
                try self.init(taking: key, derRepresentation: derRepresentation)
                return
            }
            let key = try DER.decode(
                derRepresentation,
                failure: { .invalidKey(.der($0), openSSLReason: $1) },
                decoder: { cursor, length in d2i_PUBKEY(nil, cursor, length) },
                free: { EVP_PKEY_free($0) }
            )
            try self.init(taking: key)
        }

        /// Creates a key from a SubjectPublicKeyInfo PEM block (`-----BEGIN PUBLIC KEY-----`).
        public convenience init(pemRepresentation: String) throws {
            let key = try MemoryBIO.reading(pemRepresentation) { bio in
                guard let key = PEM_read_bio_PUBKEY(bio, nil, nil, nil) else {
                    throw SigningError.invalidKey(.noPEM(kind: "PUBLIC KEY"), openSSLReason: OpenSSLErrorQueue.drain())
                }
                return key
            }
            try self.init(taking: key)
        }

        /// Returns whether `rawSignature` (`r || s`, 64 bytes) is a valid ECDSA P-256 signature over
        /// SHA-256(`message`).
        ///
        /// Any other length, `r` or `s` of zero or not below the group order, and every OpenSSL failure give `false`.
        public func isValidSignature(_ rawSignature: [UInt8], for message: [UInt8]) -> Bool {
            // der(fromRaw:) refuses any length but 64.
            guard let der = try? ECDSASignatureFormat.der(fromRaw: rawSignature) else {
                return false
            }
            return isValidSignature(der: der, for: message)
        }

        /// Returns whether a DER signature verifies; the failure reason of an invalid signature is discarded.
        func isValidSignature(der: [UInt8], for message: [UInt8]) -> Bool {
            guard let context = EVP_MD_CTX_new() else {
                OpenSSLErrorQueue.clear()
                return false
            }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestVerifyInit(context, nil, FetchedAlgorithms.shared.sha256, nil, key) == 1 else {
                OpenSSLErrorQueue.clear()
                return false
            }
            var empty: UInt8 = 0
            let status = der.withUnsafeBufferPointer { signature in
                message.withUnsafeBufferPointer { data in
                    withUnsafePointer(to: &empty) { empty in
                        EVP_DigestVerify(
                            context,
                            signature.baseAddress,
                            signature.count,
                            data.baseAddress ?? empty,
                            data.count
                        )
                    }
                }
            }
            // 1 is valid; 0 is a wrong signature and a negative value a malformed one. Neither is an error to report.
            guard status == 1 else {
                OpenSSLErrorQueue.clear()
                return false
            }
            return true
        }
    }
#endif
