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

// Linux only: it measures OpenSSL's reusable context, which CryptoKit has no counterpart of.
#if !canImport(CryptoKit)
    extension HMACSHA256Tests {
        /// Guards the point of the type: one reused context must beat setting one up per message by a wide margin
        /// (about 5x in release builds, 3x in debug builds; 2x leaves room for a busy machine). The best of several
        /// interleaved rounds is compared, so a burst of load during one round does not decide the result.
        @Test func reusedContextIsMuchFasterThanAFreshOne() throws {
            let message = [UInt8](repeating: 0x61, count: 300)
            let key = SecureRandom.bytes(32)
            let mac = try HMACSHA256(key: key)
            let clock = ContinuousClock()
            let iterations = 4_000
            var sink: UInt8 = 0
            var bestReused = Duration.seconds(1_000)
            var bestFresh = Duration.seconds(1_000)
            for _ in 0..<5 {
                bestReused = min(
                    bestReused,
                    clock.measure {
                        for _ in 0..<iterations {
                            sink &+= mac.authenticationCode(for: message)[0]
                        }
                    }
                )
                bestFresh = min(
                    bestFresh,
                    try clock.measure {
                        for _ in 0..<iterations {
                            sink &+= try HMACSHA256.authenticationCode(for: message, key: key)[0]
                        }
                    }
                )
            }
            withExtendedLifetime(sink) {}
            #expect(
                bestReused * 2 < bestFresh,
                "reused context \(bestReused), fresh contexts \(bestFresh) for \(iterations) messages"
            )
        }
    }
#endif
