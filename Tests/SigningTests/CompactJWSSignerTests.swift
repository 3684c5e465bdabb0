import Foundation
import Signing
import Testing

/// A prepared signer signs exactly as ``CompactJWS/sign(payload:typ:with:)`` does, and checks at preparation what
/// that function checks on each call.
@Suite struct CompactJWSSignerTests {}

extension CompactJWSSignerTests {
    static let payloads = [
        Array(#"{"transactionId":"2000000000000001"}"#.utf8), Array(#"{"transactionId":"2000000000000002"}"#.utf8), [],
    ]

    @Test(arguments: ["JWT", nil] as [String?])
    func hs256GivesTheSameBytesAsCompactJWSSign(typ: String?) throws {
        let secret = Array("prepared signer secret".utf8)
        let signer = try CompactJWSSigner(.hs256(secret: secret), typ: typ)
        for payload in Self.payloads {
            let direct = try CompactJWS.sign(payload: payload, typ: typ, with: .hs256(secret: secret))
            #expect(try signer.sign(payload: payload) == direct)
        }
    }

    // Linux only: these need the test CA (OpenSSL certificate building).
    #if !canImport(CryptoKit)
        @Test func es256WithAChainHasTheSameHeaderAndPayloadAndVerifies() throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            let jwsSigner = JWSSigner.es256(key: ca.leafKey, x5c: ca.chain, keyID: "KEY1")
            let signer = try CompactJWSSigner(jwsSigner)
            for payload in Self.payloads {
                let prepared = try signer.sign(payload: payload)
                let direct = try CompactJWS.sign(payload: payload, with: jwsSigner)
                // ECDSA signatures differ from one signing to the next; everything before them must not.
                let preparedParts = prepared.split(separator: ".", omittingEmptySubsequences: false)
                let directParts = direct.split(separator: ".", omittingEmptySubsequences: false)
                #expect(preparedParts.count == 3)
                #expect(preparedParts.prefix(2) == directParts.prefix(2))
                let jws = try CompactJWS.parse(prepared)
                #expect(jws.payload == payload)
                try jws.verifyES256(chain: CertificateChainVerifier(trustedRoot: ca.root), at: TestDates.dayAfterStart)
            }
        }

        @Test func preparingRefusesWhatSigningRefuses() throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            expectSigningError(.invalidArgument) {
                _ = try CompactJWSSigner(.es256(key: ca.intermediateKey, x5c: ca.chain, keyID: nil))
            }
            expectSigningError(.invalidArgument) { _ = try CompactJWSSigner(.hs256(secret: [])) }
        }
    #endif

    @Test func unsignedHasAnEmptySignature() throws {
        let compact = try CompactJWSSigner(.none).sign(payload: Self.payloads[0])
        #expect(compact.hasSuffix("."))
        #expect(try CompactJWS.parse(compact).header.alg == "none")
    }
}
