// The OpenSSL side, for Linux. Where CryptoKit is (Apple platforms, no OpenSSL) CryptoKit/ holds this type.
#if !canImport(CryptoKit)
    import COpenSSL

    /// Comparisons whose running time does not depend on where the inputs differ.
    public enum ConstantTime {
        /// Returns whether `a` and `b` hold the same bytes.
        ///
        /// The lengths are compared first (lengths of MACs and signatures are public); equal-length contents are
        /// compared with `CRYPTO_memcmp`, which reads every byte, so a forger cannot learn a MAC byte by byte from
        /// timing.
        public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
            guard a.count == b.count else {
                return false
            }
            guard !a.isEmpty else {
                return true
            }
            return a.withUnsafeBytes { left in
                b.withUnsafeBytes { right in
                    CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
                }
            }
        }
    }
#endif
