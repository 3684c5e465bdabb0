#if canImport(CryptoKit)
    import Platform

    /// Comparisons whose running time does not depend on where the inputs differ, on Apple platforms.
    ///
    /// Written from Darwin's `timingsafe_bcmp(3)` manual and never compiled on Linux.
    public enum ConstantTime {
        /// Returns whether `a` and `b` hold the same bytes.
        ///
        /// The lengths are compared first (lengths of MACs and signatures are public); equal-length contents are
        /// compared with Darwin's `timingsafe_bcmp`, which reads every byte, as `CRYPTO_memcmp` does on Linux.
        public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
            guard a.count == b.count else {
                return false
            }
            guard !a.isEmpty else {
                return true
            }
            return a.withUnsafeBytes { left in
                b.withUnsafeBytes { right in
                    timingsafe_bcmp(left.baseAddress, right.baseAddress, left.count) == 0
                }
            }
        }
    }
#endif
