import Signing
import Testing

/// RFC 7515 appendix A examples: A.1 (HS256) and A.3 (ES256). A.2 (RS256), A.4 (ES512) and A.5 (unsecured) use
/// algorithms this system does not accept.
@Suite struct RFC7515Tests {}

struct RFC7515Vectors: Decodable {
    struct HS256: Decodable {
        let compact: String
        let headerJSON: String
        let payloadJSON: String
        let k: String
    }
    struct ES256: Decodable {
        let compact: String
        let x: String
        let y: String
    }
    let a1: HS256
    let a3: ES256

    static func load() throws -> RFC7515Vectors {
        try VectorFile.load("rfc7515", as: RFC7515Vectors.self)
    }
}

extension RFC7515Tests {
    @Test func appendixA1HS256() throws {
        let vectors = try RFC7515Vectors.load()
        let key = try #require(Base64URL.decode(vectors.a1.k))
        #expect(key.count == 64)
        let jws = try CompactJWS.parse(vectors.a1.compact)
        #expect(jws.header == JWSHeader(alg: "HS256", typ: "JWT"))
        #expect(jws.headerBytes == Array(vectors.a1.headerJSON.utf8))
        #expect(jws.payload == Array(vectors.a1.payloadJSON.utf8))
        try jws.verifyHS256(secret: key)
        // One bit off in the key fails.
        var wrongKey = key
        wrongKey[0] ^= 1
        expectSigningError(.invalidSignature) { try jws.verifyHS256(secret: wrongKey) }
    }

    /// The MAC in A.1 is exactly HMAC-SHA256(key, signing input), as printed in the RFC.
    @Test func appendixA1MACBytes() throws {
        let vectors = try RFC7515Vectors.load()
        let jws = try CompactJWS.parse(vectors.a1.compact)
        let key = try #require(Base64URL.decode(vectors.a1.k))
        #expect(try HMACSHA256.authenticationCode(for: jws.signingInput, key: key) == jws.signature)
        #expect(Base64URL.encode(jws.signature) == "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    }

    @Test func appendixA3ES256() throws {
        let vectors = try RFC7515Vectors.load()
        let x = try #require(Base64URL.decode(vectors.a3.x))
        let y = try #require(Base64URL.decode(vectors.a3.y))
        try #require(x.count == 32 && y.count == 32)
        // The SubjectPublicKeyInfo of a named-curve P-256 key is a fixed header followed by 04 || x || y.
        let spkiHeader = try hexBytes("3059301306072a8648ce3d020106082a8648ce3d030107034200")
        let key = try P256PublicKey(derRepresentation: spkiHeader + [0x04] + x + y)
        #expect(try P256PublicKey(x963Representation: [0x04] + x + y).derRepresentation == key.derRepresentation)

        let jws = try CompactJWS.parse(vectors.a3.compact)
        #expect(jws.header == JWSHeader(alg: "ES256"))
        #expect(jws.signature.count == 64)
        try jws.verifyES256(publicKey: key)

        // Any other key, or the same signature over other bytes, fails.
        expectSigningError(.invalidSignature) { try jws.verifyES256(publicKey: P256PrivateKey.generate().publicKey) }
        let parts = vectors.a3.compact.split(separator: ".").map(String.init)
        let otherPayload = Base64URL.encode(Array(#"{"iss":"joe"}"#.utf8))
        let changed = try CompactJWS.parse([parts[0], otherPayload, parts[2]].joined(separator: "."))
        expectSigningError(.invalidSignature) { try changed.verifyES256(publicKey: key) }
    }
}
