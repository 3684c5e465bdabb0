import Clocks
import Foundation
import Signing
import Testing

@testable import Payments

/// The Server API's bearer token takes its time from the package's one clock: a test's clock gives `iat` and `exp`.
@Suite struct ServerAPITokenTests {
    private struct Claims: Decodable, Equatable {
        var iss: String
        var iat: Int64
        var exp: Int64
        var aud: String
        var bid: String
    }

    @Test func itsIssuedAndExpiryTimesComeFromTheClockItIsGiven() throws {
        let clock = TestClock(milliseconds: 1_760_000_000_999)
        let key = try P256PrivateKey.generate()
        let token = ServerAPIToken(
            keyID: "KEY", issuerID: "issuer", bundleID: "ai.voicedebrief.app", key: key, clock: clock)
        func claims() throws -> Claims {
            let jws = try CompactJWS.parse(try token.make())
            try jws.verifyES256(publicKey: key.publicKey)
            #expect(jws.header.kid == "KEY" && jws.header.typ == "JWT")
            return try JSONDecoder().decode(Claims.self, from: Data(jws.payload))
        }
        #expect(
            try claims()
                == Claims(
                    iss: "issuer", iat: 1_760_000_000, exp: 1_760_000_300, aud: "appstoreconnect-v1",
                    bid: "ai.voicedebrief.app"))
        clock.advance(byMilliseconds: 60_000)
        #expect(try claims().iat == 1_760_000_060, "a minute of the clock later")
    }
}
