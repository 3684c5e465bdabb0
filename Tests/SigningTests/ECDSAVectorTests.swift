import Signing
import Testing

@Suite struct ECDSAVectorTests {}

/// One test of Vectors/ecdsa_p256_sha256_p1363.json (Wycheproof-style, P1363 signatures).
struct ECDSAVector: Sendable, CustomTestStringConvertible {
    let tcId: Int
    let comment: String
    let message: String
    let signature: String
    let valid: Bool
    let publicKeyDER: String
    let publicKeyX963: String

    var testDescription: String { "tcId \(tcId): \(comment)" }

    static func all() throws -> [ECDSAVector] {
        struct File: Decodable {
            struct Group: Decodable {
                struct PublicKey: Decodable {
                    let uncompressed: String
                }
                struct Test: Decodable {
                    let tcId: Int
                    let comment: String
                    let msg: String
                    let sig: String
                    let result: String
                }
                let publicKey: PublicKey
                let publicKeyDer: String
                let tests: [Test]
            }
            let numberOfTests: Int
            let testGroups: [Group]
        }
        let file = try VectorFile.load("ecdsa_p256_sha256_p1363", as: File.self)
        let vectors = file.testGroups.flatMap { group in
            group.tests.map { test in
                ECDSAVector(
                    tcId: test.tcId,
                    comment: test.comment,
                    message: test.msg,
                    signature: test.sig,
                    valid: test.result == "valid",
                    publicKeyDER: group.publicKeyDer,
                    publicKeyX963: group.publicKey.uncompressed
                )
            }
        }
        try #require(vectors.count == file.numberOfTests)
        return vectors
    }
}

extension ECDSAVectorTests {
    @Test func vectorFileHasValidAndInvalidCases() throws {
        let vectors = try ECDSAVector.all()
        #expect(vectors.count >= 20)
        #expect(vectors.filter(\.valid).count >= 5)
        #expect(vectors.filter { !$0.valid }.count >= 15)
        #expect(vectors.contains { $0.comment.hasPrefix("RFC 6979") && $0.valid })
    }

    @Test(arguments: try ECDSAVector.all())
    func verify(_ vector: ECDSAVector) throws {
        let key = try P256PublicKey(derRepresentation: hexBytes(vector.publicKeyDER))
        #expect(key.x963Representation == (try hexBytes(vector.publicKeyX963)))
        let result = key.isValidSignature(try hexBytes(vector.signature), for: try hexBytes(vector.message))
        #expect(result == vector.valid)
    }

    /// The RFC 6979 private key signs messages that its published public key verifies.
    @Test func rfc6979KeySignsForItsPublishedPublicKey() throws {
        let vectors = try KeyVectors.load()
        let key = try P256PrivateKey(pemRepresentation: vectors.p256Sec1PEM)
        let published = try P256PublicKey(x963Representation: hexBytes(vectors.p256PublicKeyX963))
        let message = Array("sample".utf8)
        #expect(published.isValidSignature(try key.signature(for: message), for: message))
    }
}
