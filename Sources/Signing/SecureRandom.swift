// The OpenSSL side, for Linux. Where CryptoKit is (Apple platforms, no OpenSSL) CryptoKit/ holds this type.
#if !canImport(CryptoKit)
    import COpenSSL

    /// Cryptographically secure random bytes from OpenSSL's DRBG.
    public enum SecureRandom {
        /// Returns `count` random bytes from `RAND_bytes`.
        ///
        /// `RAND_bytes` fails only when the DRBG cannot be seeded; continuing with predictable keys or nonces would be
        /// worse than stopping, so that failure traps with OpenSSL's reason (swift-crypto does the same).
        public static func bytes(_ count: Int) -> [UInt8] {
            precondition(count >= 0, "SecureRandom.bytes: count must not be negative, got \(count)")
            guard count > 0 else {
                return []
            }
            precondition(
                count <= Int(Int32.max), "SecureRandom.bytes: count \(count) is larger than RAND_bytes accepts")
            return [UInt8](unsafeUninitializedCapacity: count) { buffer, initializedCount in
                guard RAND_bytes(buffer.baseAddress, Int32(count)) == 1 else {
                    fatalError("\(SigningError.failedCall("RAND_bytes(\(count))"))")
                }
                initializedCount = count
            }
        }
    }
#endif
