#if canImport(CryptoKit)
    import Security

    /// Cryptographically secure random bytes from the Security framework's `SecRandomCopyBytes`, on Apple platforms.
    ///
    /// Written from Apple's documentation and never compiled on Linux.
    public enum SecureRandom {
        /// Returns `count` random bytes from `SecRandomCopyBytes(kSecRandomDefault, …)`.
        ///
        /// A failure traps rather than continuing with predictable keys or nonces, as on the OpenSSL side.
        public static func bytes(_ count: Int) -> [UInt8] {
            precondition(count >= 0, "SecureRandom.bytes: count must not be negative, got \(count)")
            guard count > 0 else {
                return []
            }
            return [UInt8](unsafeUninitializedCapacity: count) { buffer, initializedCount in
                let status = SecRandomCopyBytes(kSecRandomDefault, count, buffer.baseAddress!)
                guard status == errSecSuccess else {
                    fatalError("\(SigningError.failedSecurityCall("SecRandomCopyBytes(\(count))", status: status))")
                }
                initializedCount = count
            }
        }
    }
#endif
