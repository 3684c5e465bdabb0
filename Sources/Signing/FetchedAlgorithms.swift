// OpenSSL only, for Linux: the app does not need it, and Apple platforms have no OpenSSL to link.
#if !canImport(CryptoKit)
    import COpenSSL
    import COpenSSLLifetime

    /// OpenSSL algorithm implementations fetched once per process.
    ///
    /// `EVP_sha256()` and friends make OpenSSL look the implementation up in the provider on every use; fetching it
    /// once with `EVP_MD_fetch` / `EVP_MAC_fetch` removes that cost from every hash and MAC.
    ///
    /// `@unchecked Sendable`: the pointers are set once in `init` and never changed, and OpenSSL documents fetched
    /// `EVP_MD` / `EVP_MAC` objects as safe to share between threads (they are reference counted and read-only).
    final class FetchedAlgorithms: @unchecked Sendable {
        /// The process-wide instance. If the default provider cannot supply SHA-256 or HMAC, nothing in this library
        /// can work, so the failure traps with OpenSSL's reason rather than surfacing on every call.
        static let shared: FetchedAlgorithms = {
            do {
                return try FetchedAlgorithms()
            } catch {
                fatalError("Signing: cannot load OpenSSL algorithms: \(error)")
            }
        }()

        /// Whether OpenSSL was first initialised at load, without its clean-up at exit (`COpenSSLLifetime`): false only
        /// when something initialised it before this library was loaded.
        static var keepsOpenSSLUntilExit: Bool { COpenSSLLifetime_keepsUntilExit() == 1 }

        /// The SHA-256 `EVP_MD`.
        let sha256: OpaquePointer
        /// The HMAC `EVP_MAC`.
        let hmac: OpaquePointer
        /// The SHA-384 `EVP_MD` (StoreKit's device stamp).
        let sha384: OpaquePointer
        /// An HMAC context with its digest (SHA-256) set and no key, only ever copied (`EVP_MAC_CTX_dup` reads it):
        /// a new key then looks no digest up by name, a lookup that has failed, rarely and with nothing on the error
        /// queue, with many threads at it (a test process running commands side by side, the mock store).
        let hmacSHA256: OpaquePointer

        private init() throws {
            guard let sha256 = EVP_MD_fetch(nil, "SHA256", nil) else {
                throw SigningError.failedCall("EVP_MD_fetch(SHA256)")
            }
            guard let hmac = EVP_MAC_fetch(nil, "HMAC", nil) else {
                EVP_MD_free(sha256)
                throw SigningError.failedCall("EVP_MAC_fetch(HMAC)")
            }
            guard let sha384 = EVP_MD_fetch(nil, "SHA384", nil) else {
                EVP_MD_free(sha256)
                EVP_MAC_free(hmac)
                throw SigningError.failedCall("EVP_MD_fetch(SHA384)")
            }
            self.sha256 = sha256
            self.hmac = hmac
            self.sha384 = sha384
            guard let template = Self.hmacTemplate(hmac) else {
                EVP_MD_free(sha256)
                EVP_MAC_free(hmac)
                EVP_MD_free(sha384)
                throw SigningError.failedCall("EVP_MAC_CTX_set_params(HMAC digest SHA256)")
            }
            self.hmacSHA256 = template
        }

        /// A context of `hmac` with SHA-256 as its digest.
        private static func hmacTemplate(_ hmac: OpaquePointer) -> OpaquePointer? {
            guard let context = EVP_MAC_CTX_new(hmac) else { return nil }
            var digestName = Array("SHA256".utf8CString)
            let status = digestName.withUnsafeMutableBufferPointer { name in
                var parameters = [
                    OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, name.baseAddress, 0),
                    OSSL_PARAM_construct_end(),
                ]
                return EVP_MAC_CTX_set_params(context, &parameters)
            }
            guard status == 1 else {
                EVP_MAC_CTX_free(context)
                return nil
            }
            return context
        }

        deinit {
            EVP_MD_free(sha256)
            EVP_MAC_free(hmac)
            EVP_MD_free(sha384)
            EVP_MAC_CTX_free(hmacSHA256)
        }
    }
#endif
