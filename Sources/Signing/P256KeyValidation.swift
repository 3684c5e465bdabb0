// OpenSSL only, for Linux: the app does not need it, and Apple platforms have no OpenSSL to link.
#if !canImport(CryptoKit)
    import COpenSSL

    /// Checks that an `EVP_PKEY` is what the P-256 wrappers promise: an EC key on P-256 with named-curve encoding.
    enum P256KeyValidation {
        /// Throws ``SigningError`` (`invalidKey`) unless `key` is a named-curve P-256 EC key.
        static func requireP256(_ key: OpaquePointer, what: String) throws {
            guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else {
                throw SigningError.invalidKey(.notEC(what: what))
            }
            guard let group = stringParameter(key, OSSL_PKEY_PARAM_GROUP_NAME) else {
                throw SigningError.invalidKey(.unreadableCurve(what: what), openSSLReason: OpenSSLErrorQueue.drain())
            }
            // OpenSSL names P-256 "prime256v1" (its X9.62 name); accept the NIST alias too.
            guard group == "prime256v1" || group == "P-256" else {
                throw SigningError.invalidKey(.wrongCurve(what: what, curve: group))
            }
            // Explicit curve parameters are a classic attack surface and are forbidden in strict X.509.
            let encoding = stringParameter(key, OSSL_PKEY_PARAM_EC_ENCODING) ?? "named_curve"
            guard encoding == "named_curve" else {
                throw SigningError.invalidKey(.explicitCurveParameters(what: what, encoding: encoding))
            }
        }

        private static func stringParameter(_ key: OpaquePointer, _ name: String) -> String? {
            var buffer = [CChar](repeating: 0, count: 80)
            var length = 0
            let status = buffer.withUnsafeMutableBufferPointer { pointer in
                EVP_PKEY_get_utf8_string_param(key, name, pointer.baseAddress, pointer.count, &length)
            }
            guard status == 1 else {
                OpenSSLErrorQueue.clear()
                return nil
            }
            return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
#endif
