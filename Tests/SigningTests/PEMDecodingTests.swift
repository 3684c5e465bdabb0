import Testing

@testable import Signing

/// The PEM reader the Apple side uses (Certificate and P256PublicKey over Security and CryptoKit), checked here
/// against what OpenSSL reads from the same text, since the Apple side itself cannot be built on Linux.
@Suite struct PEMDecodingTests {}

extension PEMDecodingTests {
    @Test func readsWhatItWrites() throws {
        let der = try P256PrivateKey.generate().publicKey.derRepresentation
        #expect(PEM.decode(label: "PUBLIC KEY", from: PEM.encode(label: "PUBLIC KEY", der: der)) == der)
    }

    /// The published key of Vectors/keys.json, as OpenSSL reads it (P256PublicKey's PEM initialiser on Linux).
    @Test func readsThePublicKeyOpenSSLReads() throws {
        let vectors = try KeyVectors.load()
        let der = try #require(PEM.decode(label: "PUBLIC KEY", from: vectors.p256SpkiPEM))
        #expect(der == (try P256PublicKey(pemRepresentation: vectors.p256SpkiPEM)).derRepresentation)
    }

    /// Blocks of other labels before it are skipped, CRLF line ends and a text around it are ignored.
    @Test func findsTheFirstBlockOfItsLabel() throws {
        let key = try P256PrivateKey.generate()
        let der = key.publicKey.derRepresentation
        let text =
            "a note\r\n" + key.pemRepresentation
            + PEM.encode(label: "PUBLIC KEY", der: der).replacingOccurrences(of: "\n", with: "\r\n") + "trailer\n"
        #expect(PEM.decode(label: "PUBLIC KEY", from: text) == der)
    }

    @Test(arguments: [
        "", "not PEM", "-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----\n",
        "-----BEGIN PUBLIC KEY-----\nMFkw*EwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----\n",
        "-----BEGIN PUBLIC KEY-----\nProc-Type: 4,ENCRYPTED\n\nMFkw\n-----END PUBLIC KEY-----\n",
        "-----BEGIN PUBLIC KEY-----\nMFkw\n", "-----BEGIN CERTIFICATE-----\nMFkw\n-----END CERTIFICATE-----\n",
    ])
    func refuses(_ text: String) {
        #expect(PEM.decode(label: "PUBLIC KEY", from: text) == nil)
    }

    #if !canImport(CryptoKit)
        /// A certificate PEM (the test CA's, written by OpenSSL) gives the DER OpenSSL reads from it.
        @Test func readsTheCertificateOpenSSLReads() throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            let text = ca.leafKey.pemRepresentation + ca.intermediate.pemRepresentation + ca.root.pemRepresentation
            let der = try #require(PEM.decode(label: "CERTIFICATE", from: text))
            #expect(der == (try Certificate(pemRepresentation: text)).derRepresentation)
            #expect(der == ca.intermediate.derRepresentation)
        }
    #endif
}
