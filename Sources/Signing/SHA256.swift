// The OpenSSL side, for Linux. Where CryptoKit is (Apple platforms, no OpenSSL) CryptoKit/ holds this type.
#if !canImport(CryptoKit)
    import COpenSSL

    /// SHA-256 (FIPS 180-4) through OpenSSL, with the `EVP_MD` fetched once per process.
    public enum SHA256 {
        /// The digest length in bytes.
        public static let byteCount = 32

        /// Returns the SHA-256 digest of `bytes`.
        public static func hash(_ bytes: [UInt8]) -> [UInt8] {
            bytes.withUnsafeBytes { hash($0) }
        }

        /// Returns the SHA-256 digest of the bytes in `bytes`.
        ///
        /// `EVP_Digest` only fails on allocation failure or a broken provider; the signature is non-throwing to match
        /// how hashing is used, so such a failure traps with OpenSSL's reason.
        public static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
            let digest = FetchedAlgorithms.shared.sha256
            return [UInt8](unsafeUninitializedCapacity: byteCount) { output, initializedCount in
                var length: UInt32 = 0
                // An empty Swift buffer may have a nil base address; OpenSSL wants a valid pointer even for 0 bytes.
                let input = bytes.baseAddress ?? UnsafeRawPointer(output.baseAddress!)
                guard EVP_Digest(input, bytes.count, output.baseAddress, &length, digest, nil) == 1,
                    Int(length) == byteCount
                else {
                    fatalError("\(SigningError.failedCall("EVP_Digest(SHA256)"))")
                }
                initializedCount = byteCount
            }
        }
    }
#endif
