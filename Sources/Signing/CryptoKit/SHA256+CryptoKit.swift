#if canImport(CryptoKit)
    import CryptoKit
    import Foundation

    /// SHA-256 (FIPS 180-4) through CryptoKit, on Apple platforms (where there is no OpenSSL to link).
    ///
    /// The same API as the OpenSSL side (SHA256.swift) and fed the same known answers (`SigningTests.SHA256Tests`).
    /// Written from Apple's documentation of `CryptoKit.SHA256.hash(data:)` and never compiled on Linux.
    public enum SHA256 {
        /// The digest length in bytes.
        public static let byteCount = 32

        /// Returns the SHA-256 digest of `bytes`.
        public static func hash(_ bytes: [UInt8]) -> [UInt8] {
            Array(CryptoKit.SHA256.hash(data: bytes))
        }

        /// Returns the SHA-256 digest of the bytes in `bytes`.
        public static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
            Array(CryptoKit.SHA256.hash(data: bytes))
        }
    }
#endif
