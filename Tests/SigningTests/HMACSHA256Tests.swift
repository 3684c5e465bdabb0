import Signing
import Testing

@Suite struct HMACSHA256Tests {}

/// One test case of Vectors/rfc4231.json.
struct RFC4231Case: Decodable, Sendable, CustomTestStringConvertible {
    let `case`: Int
    let key: String
    let data: String
    let hmacSHA256: String
    let truncateToBytes: Int

    var testDescription: String { "RFC 4231 test case \(self.case)" }

    static func all() throws -> [RFC4231Case] {
        struct File: Decodable {
            let tests: [RFC4231Case]
        }
        return try VectorFile.load("rfc4231", as: File.self).tests
    }
}

extension HMACSHA256Tests {
    @Test func vectorFileHasAllSevenCases() throws {
        #expect(try RFC4231Case.all().map(\.case) == [1, 2, 3, 4, 5, 6, 7])
    }

    @Test(arguments: try RFC4231Case.all())
    func rfc4231(_ vector: RFC4231Case) throws {
        let key = try hexBytes(vector.key)
        let data = try hexBytes(vector.data)
        let expected = try hexBytes(vector.hmacSHA256)
        #expect(expected.count == vector.truncateToBytes)

        let mac = try HMACSHA256(key: key)
        let code = mac.authenticationCode(for: data)
        #expect(code.count == 32)
        #expect(Array(code.prefix(vector.truncateToBytes)) == expected)
        // The context is reused: a second message under the same key gives the same answer again.
        #expect(mac.authenticationCode(for: data) == code)
        #expect(try HMACSHA256.authenticationCode(for: data, key: key) == code)
        #expect(data.withUnsafeBytes { mac.authenticationCode(for: $0) } == code)
    }

    /// Reusing one context must not leak state from one message into the next.
    @Test func reusedContextMatchesFreshContextForEachMessage() throws {
        let key = Array("ledger key".utf8)
        let reused = try HMACSHA256(key: key)
        for length in [0, 1, 31, 32, 63, 64, 65, 300, 1000] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            let fresh = try HMACSHA256.authenticationCode(for: message, key: key)
            #expect(reused.authenticationCode(for: message) == fresh, "length \(length)")
        }
    }

    /// HMAC-SHA256 with an empty key and empty message (a widely published value, e.g. Wikipedia's HMAC page).
    @Test func emptyKeyAndMessage() throws {
        let code = try HMACSHA256.authenticationCode(for: [], key: [])
        #expect(Hex.encode(code) == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test func differentKeysGiveDifferentCodes() throws {
        let message = Array("same message".utf8)
        let first = try HMACSHA256.authenticationCode(for: message, key: [1, 2, 3])
        let second = try HMACSHA256.authenticationCode(for: message, key: [1, 2, 4])
        #expect(first != second)
    }
}

extension HMACSHA256Tests {
    /// One context reused for many messages (the ledger's and the store's fast path) gives each message the MAC a
    /// fresh context gives it. (Its speed is `credit-bench`'s to show, never a timed test's.)
    @Test func aReusedContextGivesEveryMessageTheMACOfAFreshOne() throws {
        let key = SecureRandom.bytes(32)
        let mac = try HMACSHA256(key: key)
        for length in [0, 1, 63, 64, 65, 300, 4_096] {
            for _ in 0..<20 {
                let message = length == 0 ? [] : SecureRandom.bytes(length)
                #expect(
                    mac.authenticationCode(for: message) == (try HMACSHA256.authenticationCode(for: message, key: key)),
                    "a message of \(length) bytes")
            }
        }
    }
}
