import Signing
import Testing

@Suite struct P256KeyTests {}

extension P256KeyTests {
    @Test func signAndVerifyRoundTrip() throws {
        let key = try P256PrivateKey.generate()
        let message = Array("ledger head: device A, seq 42".utf8)
        let signature = try key.signature(for: message)
        #expect(signature.count == 64)
        #expect(key.publicKey.isValidSignature(signature, for: message))
    }

    @Test func tamperedSignatureOrMessageIsRejected() throws {
        let key = try P256PrivateKey.generate()
        let message = Array("balance 1500".utf8)
        let signature = try key.signature(for: message)
        for index in [0, 31, 32, 63] {
            var changed = signature
            changed[index] ^= 0x01
            #expect(!key.publicKey.isValidSignature(changed, for: message), "flipped byte \(index)")
        }
        #expect(!key.publicKey.isValidSignature(signature, for: Array("balance 1501".utf8)))
        #expect(!key.publicKey.isValidSignature(Array(signature.dropLast()), for: message))
        #expect(!key.publicKey.isValidSignature(signature + [0], for: message))
        #expect(!key.publicKey.isValidSignature([], for: message))
        let otherKey = try P256PrivateKey.generate()
        #expect(!otherKey.publicKey.isValidSignature(signature, for: message))
    }

    @Test func emptyMessageSignsAndVerifies() throws {
        let key = try P256PrivateKey.generate()
        let signature = try key.signature(for: [])
        #expect(key.publicKey.isValidSignature(signature, for: []))
        #expect(!key.publicKey.isValidSignature(signature, for: [0]))
    }

    @Test func generatedKeysDiffer() throws {
        let first = try P256PrivateKey.generate()
        let second = try P256PrivateKey.generate()
        #expect(first.publicKey.derRepresentation != second.publicKey.derRepresentation)
    }

    @Test func privateKeyPEMRoundTripIsPKCS8() throws {
        let key = try P256PrivateKey.generate()
        let pem = key.pemRepresentation
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(pem.hasSuffix("-----END PRIVATE KEY-----\n"))
        let reloaded = try P256PrivateKey(pemRepresentation: pem)
        #expect(reloaded.publicKey.derRepresentation == key.publicKey.derRepresentation)
        // The reloaded key signs for the original public key.
        let message = Array("round trip".utf8)
        #expect(key.publicKey.isValidSignature(try reloaded.signature(for: message), for: message))
    }

    @Test func publicKeyPEMAndDERRoundTrip() throws {
        let key = try P256PrivateKey.generate().publicKey
        #expect(key.derRepresentation.count == 91)
        #expect(key.pemRepresentation.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        #expect(key.pemRepresentation.hasSuffix("-----END PUBLIC KEY-----\n"))
        #expect(try P256PublicKey(pemRepresentation: key.pemRepresentation).derRepresentation == key.derRepresentation)
        #expect(try P256PublicKey(derRepresentation: key.derRepresentation).derRepresentation == key.derRepresentation)
        #expect(
            try P256PublicKey(x963Representation: key.x963Representation).derRepresentation == key.derRepresentation
        )
    }

    /// The RFC 6979 A.2.5 key as SEC1 ("EC PRIVATE KEY") and PKCS#8; its public key is published in the RFC.
    @Test func loadsSEC1AndPKCS8PEM() throws {
        let vectors = try KeyVectors.load()
        let expectedPoint = try hexBytes(vectors.p256PublicKeyX963)
        let sec1 = try P256PrivateKey(pemRepresentation: vectors.p256Sec1PEM)
        let pkcs8 = try P256PrivateKey(pemRepresentation: vectors.p256Pkcs8PEM)
        #expect(sec1.publicKey.x963Representation == expectedPoint)
        #expect(pkcs8.publicKey.x963Representation == expectedPoint)
        // Loading SEC1 and writing gives the PKCS#8 form that Python wrote for the same key (OpenSSL's encoding;
        // CryptoKit's PKCS#8 DER is its own).
        #if !canImport(CryptoKit)
            #expect(sec1.pemRepresentation == vectors.p256Pkcs8PEM)
        #endif
        let spki = try P256PublicKey(pemRepresentation: vectors.p256SpkiPEM)
        #expect(spki.x963Representation == expectedPoint)
    }

    @Test func refusesEncryptedPEMWithoutPrompting() throws {
        let vectors = try KeyVectors.load()
        expectSigningError(.invalidKey) {
            _ = try P256PrivateKey(pemRepresentation: vectors.p256EncryptedPkcs8PEM)
        }
    }

    @Test func refusesOtherCurves() throws {
        let vectors = try KeyVectors.load()
        let k1 = expectSigningError(.invalidKey) {
            _ = try P256PrivateKey(pemRepresentation: vectors.secp256k1Pkcs8PEM)
        }
        // OpenSSL names the curve; CryptoKit does not say why it refuses a key.
        #if !canImport(CryptoKit)
            #expect(k1?.message.contains("secp256k1") == true, "\(String(describing: k1))")
        #endif
        expectSigningError(.invalidKey) {
            _ = try P256PublicKey(derRepresentation: hexBytes(vectors.secp256k1SpkiDER))
        }
        expectSigningError(.invalidKey) {
            _ = try P256PublicKey(derRepresentation: hexBytes(vectors.p384SpkiDER))
        }
    }

    @Test func refusesExplicitCurveParameters() throws {
        let vectors = try KeyVectors.load()
        let error = expectSigningError(.invalidKey) {
            _ = try P256PublicKey(derRepresentation: hexBytes(vectors.p256ExplicitParametersSpkiDER))
        }
        #if !canImport(CryptoKit)
            #expect(error?.message.contains("explicit curve parameters") == true, "\(String(describing: error))")
        #endif
    }

    @Test func refusesMalformedPublicKeys() throws {
        let der = try P256PrivateKey.generate().publicKey.derRepresentation
        expectSigningError(.invalidKey) { _ = try P256PublicKey(derRepresentation: []) }
        expectSigningError(.invalidKey) { _ = try P256PublicKey(derRepresentation: Array(der.dropLast())) }
        let trailing = expectSigningError(.invalidKey) { _ = try P256PublicKey(derRepresentation: der + [0]) }
        #expect(trailing?.message.contains("unexpected bytes") == true)
        // A point that is not on the curve: change the last byte of y.
        var offCurve = der
        offCurve[offCurve.count - 1] ^= 0x01
        expectSigningError(.invalidKey) { _ = try P256PublicKey(derRepresentation: offCurve) }
        expectSigningError(.invalidKey) { _ = try P256PublicKey(x963Representation: Array(der.suffix(64))) }
    }

    // Linux only: OpenSSL's reasons and error queue.
    #if !canImport(CryptoKit)
        /// OpenSSL failures carry OpenSSL's own reason text.
        @Test func openSSLReasonIsCarried() throws {
            let error = expectSigningError(.invalidCertificate) {
                _ = try Certificate(pemRepresentation: "not a certificate")
            }
            let reason = try #require(error?.openSSLReason)
            #expect(reason.contains("PEM routines::no start line"), "\(reason)")
            let keyError = expectSigningError(.invalidKey) {
                _ = try P256PrivateKey(pemRepresentation: "not a key")
            }
            #expect(keyError?.openSSLReason?.hasPrefix("error:") == true, "\(String(describing: keyError))")
            #expect(error?.diagnosticDescription.contains("OpenSSL: ") == true)
        }

        /// A failure's reasons are drained into its error, so the next error does not repeat them.
        @Test func errorQueueDoesNotLeakIntoTheNextError() throws {
            _ = try? Certificate(pemRepresentation: "not a certificate")
            let key = try P256PrivateKey.generate()
            #expect(!key.publicKey.isValidSignature([UInt8](repeating: 0, count: 64), for: [1]))
            let error = expectSigningError(.invalidKey) {
                _ = try P256PublicKey(derRepresentation: [0x30, 0x03, 0x02, 0x01, 0x01])
            }
            let reason = try #require(error?.openSSLReason)
            #expect(reason.contains("asn1 encoding routines"), "\(reason)")
            #expect(!reason.contains("no start line"), "\(reason)")
        }
    #endif

    @Test func concurrentSigningWithOneKey() async throws {
        let key = try P256PrivateKey.generate()
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let message = Array("message \(index)".utf8)
                    return key.publicKey.isValidSignature(try key.signature(for: message), for: message)
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 })
    }
}
