#if canImport(CryptoKit)
    import CryptoKit
    import Foundation

    /// HMAC-SHA256 (RFC 2104) with one key, through CryptoKit's `HMAC<SHA256>`, on Apple platforms.
    ///
    /// The same API as the OpenSSL side (HMACSHA256.swift) and fed the same RFC 4231 vectors
    /// (`SigningTests.HMACSHA256Tests`). CryptoKit has no context to reuse, so each message is one
    /// `HMAC<SHA256>.authenticationCode(for:using:)` under the stored key: the reuse that makes the OpenSSL side
    /// faster buys nothing here, and the answers are the same. Written from Apple's documentation and never compiled
    /// on Linux.
    ///
    /// Not `Sendable`, as on the OpenSSL side, so that code written against either side is the same.
    public final class HMACSHA256 {
        /// The MAC length in bytes.
        public static let byteCount = 32

        private let key: SymmetricKey

        /// Creates a MAC with `key`. Any key length is allowed, as in RFC 2104 (long keys are hashed first).
        ///
        /// - Throws: never on this side; `throws` keeps the OpenSSL side's signature.
        public init(key: [UInt8]) throws {
            self.key = SymmetricKey(data: key)
        }

        /// Returns the 32-byte HMAC-SHA256 of `message`.
        public func authenticationCode(for message: [UInt8]) -> [UInt8] {
            Array(HMAC<CryptoKit.SHA256>.authenticationCode(for: message, using: key))
        }

        /// Returns the 32-byte HMAC-SHA256 of the bytes in `message`.
        public func authenticationCode(for message: UnsafeRawBufferPointer) -> [UInt8] {
            Array(HMAC<CryptoKit.SHA256>.authenticationCode(for: message, using: key))
        }

        /// Writes the 32-byte HMAC-SHA256 of the bytes in `message` to `output` (which must hold at least 32 bytes).
        public func authenticationCode(
            for message: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
        ) {
            precondition(output.count >= Self.byteCount, "the output holds fewer than \(Self.byteCount) bytes")
            let code = HMAC<CryptoKit.SHA256>.authenticationCode(for: message, using: key)
            code.withUnsafeBytes { output.copyMemory(from: $0) }
        }

        /// Returns the HMAC-SHA256 of `message` under `key`.
        public static func authenticationCode(for message: [UInt8], key: [UInt8]) throws -> [UInt8] {
            try HMACSHA256(key: key).authenticationCode(for: message)
        }
    }
#endif
