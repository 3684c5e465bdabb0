// OpenSSL only, for Linux: the app does not need it, and Apple platforms have no OpenSSL to link.
#if !canImport(CryptoKit)
    import COpenSSL

    /// SHA-384 (FIPS 180-4) through OpenSSL, with the `EVP_MD` fetched once per process: StoreKit's device verification
    /// hashes with it.
    public enum SHA384 {
        /// The digest length in bytes.
        public static let byteCount = 48

        /// Returns the SHA-384 digest of `bytes`. Traps only if OpenSSL cannot hash at all (as ``SHA256`` does).
        public static func hash(_ bytes: [UInt8]) -> [UInt8] {
            bytes.withUnsafeBytes { buffer in
                [UInt8](unsafeUninitializedCapacity: byteCount) { output, initializedCount in
                    var length: UInt32 = 0
                    let input = buffer.baseAddress ?? UnsafeRawPointer(output.baseAddress!)
                    guard
                        EVP_Digest(
                            input, buffer.count, output.baseAddress, &length, FetchedAlgorithms.shared.sha384, nil)
                            == 1,
                        Int(length) == byteCount
                    else {
                        fatalError("\(SigningError.failedCall("EVP_Digest(SHA384)"))")
                    }
                    initializedCount = byteCount
                }
            }
        }
    }
#endif
