import Payments
import Signing

/// The App Store Connect API key a ``TestStore`` makes for itself: a new P-256 key per store, given to `mockstore`
/// with `--api-key` (as a `.p8` file, mode 0600) and used by ``TestStore/serverAPI`` to sign its bearer tokens.
struct ServerAPIKey: Sendable {
    /// The key id (`kid`) of every test store's own key.
    static let keyID = "TESTSTORE1"
    /// The issuer id in the tokens (the store does not check it against anything).
    static let issuerID = "mockstore-test-issuer"

    let key: P256PrivateKey

    static func make() throws -> ServerAPIKey {
        ServerAPIKey(key: try P256PrivateKey.generate())
    }

    /// Writes the private key (PKCS#8 PEM, as Apple's `.p8` files) to `path`, mode 0600.
    func write(to path: String) throws {
        try KeyFile.write(Array(key.pemRepresentation.utf8), to: path)
    }

    /// The bearer tokens for a store of `bundleID`.
    func token(bundleID: String) -> ServerAPIToken {
        ServerAPIToken(keyID: Self.keyID, issuerID: Self.issuerID, bundleID: bundleID, key: key)
    }
}
