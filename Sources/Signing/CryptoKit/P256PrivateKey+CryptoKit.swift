#if canImport(CryptoKit)
    import CryptoKit
    import Foundation

    /// A P-256 (secp256r1) ECDSA private key: CryptoKit's `P256.Signing.PrivateKey`, on Apple platforms.
    ///
    /// The same API as the OpenSSL side (P256PrivateKey.swift). Written from Apple's documentation and never
    /// compiled on Linux. `@unchecked Sendable` because the key is an immutable value, never changed after `init`.
    public final class P256PrivateKey: @unchecked Sendable {
        let key: P256.Signing.PrivateKey

        /// The matching public key, derived once in `init`.
        public let publicKey: P256PublicKey

        init(_ key: P256.Signing.PrivateKey) {
            self.key = key
            publicKey = P256PublicKey(key.publicKey)
        }

        /// Generates a new random key (CryptoKit's generator).
        ///
        /// - Throws: never on this side; `throws` keeps the OpenSSL side's signature.
        public static func generate() throws -> P256PrivateKey {
            P256PrivateKey(P256.Signing.PrivateKey())
        }

        /// Creates a key from PEM: PKCS#8 (`-----BEGIN PRIVATE KEY-----`) or SEC1 (`-----BEGIN EC PRIVATE KEY-----`),
        /// as CryptoKit's `init(pemRepresentation:)` reads them.
        ///
        /// - Throws: ``SigningError`` (`invalidKey`) if CryptoKit reads no P-256 key from it (encrypted PEM, another
        ///   curve, not PEM: CryptoKit does not say which).
        public convenience init(pemRepresentation: String) throws {
            let key: P256.Signing.PrivateKey
            do {
                key = try P256.Signing.PrivateKey(pemRepresentation: pemRepresentation)
            } catch {
                throw SigningError.invalidKey(.noPEM(kind: "unencrypted PRIVATE KEY or EC PRIVATE KEY"))
            }
            self.init(key)
        }

        /// The key as unencrypted PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`): CryptoKit's PKCS#8 DER in the same
        /// PEM lines as the OpenSSL side writes.
        public var pemRepresentation: String {
            PEM.encode(label: "PRIVATE KEY", der: Array(key.derRepresentation))
        }

        /// Signs SHA-256(`message`) with ECDSA and returns the raw 64-byte `r || s` form used by JWS (ES256).
        public func signature(for message: [UInt8]) throws -> [UInt8] {
            Array(try key.signature(for: message).rawRepresentation)
        }

        /// Signs SHA-256(`message`) and returns the DER signature (as X.509 uses it).
        public func derSignature(for message: [UInt8]) throws -> [UInt8] {
            Array(try key.signature(for: message).derRepresentation)
        }
    }
#endif
