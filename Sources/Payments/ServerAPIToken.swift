import Clocks
import Foundation
import Signing

/// The bearer token of the App Store Server API, as Apple specifies it: an ES256 JWT whose header names the API
/// key (`kid`, `typ` JWT) and whose claims are `iss` (the issuer id), `iat`, `exp` (five minutes later), `aud`
/// `appstoreconnect-v1` and `bid` (the app's bundle id). Signed with ``Signing``'s P-256 key; a new one per request.
public struct ServerAPIToken: Sendable {
    public let keyID: String
    public let issuerID: String
    public let bundleID: String
    public let key: P256PrivateKey
    /// Where the time of `iat` and `exp` comes from (the package's one clock; a test's for tests).
    public let clock: any WallClock

    /// How long a token lives (Apple allows up to an hour; its own library uses five minutes).
    public static let lifetime: TimeInterval = 300

    public init(
        keyID: String, issuerID: String, bundleID: String, key: P256PrivateKey,
        clock: any WallClock = SystemClock()
    ) {
        self.keyID = keyID
        self.issuerID = issuerID
        self.bundleID = bundleID
        self.key = key
        self.clock = clock
    }

    /// A token signed now.
    public func make() throws -> String {
        let issued = clock.currentMilliseconds() / 1_000
        let claims = Claims(
            iss: issuerID, iat: issued, exp: issued + Int64(Self.lifetime), aud: "appstoreconnect-v1", bid: bundleID)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let payload = try encoder.encode(claims)
        return try CompactJWSSigner(.es256(key: key, x5c: nil, keyID: keyID), typ: "JWT").sign(payload: Array(payload))
    }

    /// The token's claims, as Apple's Server API reads them.
    private struct Claims: Encodable {
        var iss: String
        var iat: Int64
        var exp: Int64
        var aud: String
        var bid: String
    }
}
