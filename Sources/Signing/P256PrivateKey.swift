// The OpenSSL side, for Linux. Where CryptoKit is (Apple platforms, no OpenSSL) CryptoKit/ holds this type.
#if !canImport(CryptoKit)
    import COpenSSL

    /// A P-256 (secp256r1) ECDSA private key.
    ///
    /// Owns an OpenSSL `EVP_PKEY` and frees it in `deinit`. `@unchecked Sendable` because the object is immutable after
    /// `init` (the key and its derived public key never change) and OpenSSL allows concurrent signing with one
    /// `EVP_PKEY`; each signature uses its own `EVP_MD_CTX`.
    public final class P256PrivateKey: @unchecked Sendable {
        let key: OpaquePointer

        /// The matching public key, derived once in `init`.
        public let publicKey: P256PublicKey

        /// Takes ownership of `key` (freeing it if it is rejected).
        init(taking key: OpaquePointer) throws {
            do {
                try P256KeyValidation.requireP256(key, what: "private key")
                publicKey = try P256PublicKey(publicPartOf: key)
            } catch {
                EVP_PKEY_free(key)
                throw error
            }
            self.key = key
        }

        deinit {
            EVP_PKEY_free(key)
        }

        /// Generates a new random key with OpenSSL's DRBG.
        public static func generate() throws -> P256PrivateKey {
            guard let key = COpenSSL_EVP_EC_gen_P256() else {
                throw SigningError.failedCall("P-256 key generation (EVP_PKEY_Q_keygen)")
            }
            return try P256PrivateKey(taking: key)
        }

        /// Creates a key from PEM: PKCS#8 (`-----BEGIN PRIVATE KEY-----`) or SEC1 (`-----BEGIN EC PRIVATE KEY-----`).
        ///
        /// Encrypted PEM is refused rather than prompting for a passphrase on the terminal.
        /// - Throws: ``SigningError`` (`invalidKey`) if no key can be read or it is not a named-curve P-256 key.
        public convenience init(pemRepresentation: String) throws {
            let key = try MemoryBIO.reading(pemRepresentation) { bio in
                // Without a callback OpenSSL would ask the terminal for a passphrase; this one supplies none.
                guard let key = PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil) else {
                    throw SigningError.invalidKey(
                        .noPEM(kind: "unencrypted PRIVATE KEY or EC PRIVATE KEY"),
                        openSSLReason: OpenSSLErrorQueue.drain())
                }
                return key
            }
            try self.init(taking: key)
        }

        /// The key as unencrypted PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
        ///
        /// Writing to a memory BIO only fails when memory runs out, so a failure traps with OpenSSL's reason.
        public var pemRepresentation: String {
            do {
                let bio = try MemoryBIO()
                guard PEM_write_bio_PrivateKey(bio.pointer, key, nil, nil, 0, nil, nil) == 1 else {
                    throw SigningError.failedCall("PEM_write_bio_PrivateKey")
                }
                return String(decoding: try bio.contents(), as: UTF8.self)
            } catch {
                fatalError("P256PrivateKey.pemRepresentation: \(error)")
            }
        }

        /// Signs SHA-256(`message`) with ECDSA and returns the raw 64-byte `r || s` form used by JWS (ES256).
        ///
        /// OpenSSL 3.0 uses a random nonce, so two signatures of one message differ; both verify.
        public func signature(for message: [UInt8]) throws -> [UInt8] {
            try ECDSASignatureFormat.raw(fromDER: derSignature(for: message))
        }

        /// Signs SHA-256(`message`) and returns the DER signature (as X.509 and OpenSSL use it).
        public func derSignature(for message: [UInt8]) throws -> [UInt8] {
            guard let context = EVP_MD_CTX_new() else {
                throw SigningError.failedCall("EVP_MD_CTX_new")
            }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestSignInit(context, nil, FetchedAlgorithms.shared.sha256, nil, key) == 1 else {
                throw SigningError.failedCall("EVP_DigestSignInit(ECDSA P-256, SHA-256)")
            }
            let maximumLength = Int(EVP_PKEY_get_size(key))
            guard maximumLength > 0 else {
                throw SigningError.failedCall("EVP_PKEY_get_size")
            }
            var signature = [UInt8](repeating: 0, count: maximumLength)
            var length = maximumLength
            var empty: UInt8 = 0
            let status = signature.withUnsafeMutableBufferPointer { output in
                message.withUnsafeBufferPointer { data in
                    withUnsafePointer(to: &empty) { empty in
                        EVP_DigestSign(context, output.baseAddress, &length, data.baseAddress ?? empty, data.count)
                    }
                }
            }
            guard status == 1, length > 0, length <= maximumLength else {
                throw SigningError.failedCall("EVP_DigestSign(ECDSA P-256, SHA-256)")
            }
            signature.removeLast(maximumLength - length)
            return signature
        }
    }
#endif
