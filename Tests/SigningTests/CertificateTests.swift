// Linux only: it needs OpenSSL-only parts of Signing (the test CA, certificate building, extensions by OID).
#if !canImport(CryptoKit)
    import Foundation
    import Signing
    import Testing

    @Suite struct CertificateTests {}

    extension CertificateTests {
        @Test func pemAndDERRoundTrip() throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            for certificate in ca.chain {
                let pem = certificate.pemRepresentation
                #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
                #expect(pem.hasSuffix("-----END CERTIFICATE-----\n"))
                #expect(pem.split(separator: "\n").allSatisfy { $0.count <= 64 })
                let fromPEM = try Certificate(pemRepresentation: pem)
                let fromDER = try Certificate(derRepresentation: certificate.derRepresentation)
                #expect(fromPEM.derRepresentation == certificate.derRepresentation)
                #expect(fromDER == certificate)
                #expect(fromPEM.subjectCommonName == certificate.subjectCommonName)
                #expect(fromPEM.notBefore == certificate.notBefore)
                #expect(fromPEM.notAfter == certificate.notAfter)
            }
        }

        @Test func rejectsMalformedCertificates() throws {
            let der = try TestCertificateAuthority.make(validFrom: TestDates.start).leaf.derRepresentation
            expectSigningError(.invalidCertificate) { _ = try Certificate(derRepresentation: []) }
            expectSigningError(.invalidCertificate) { _ = try Certificate(derRepresentation: Array(der.dropLast())) }
            expectSigningError(.invalidCertificate) { _ = try Certificate(derRepresentation: der + [0]) }
            expectSigningError(.invalidCertificate) { _ = try Certificate(pemRepresentation: "") }
            expectSigningError(.invalidCertificate) {
                _ = try Certificate(pemRepresentation: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")
            }
        }

        @Test func extensionLookupByOID() throws {
            let leaf = try TestCertificateAuthority.make(validFrom: TestDates.start).leaf
            #expect(leaf.hasExtension(oid: AppleOID.leafMarker))
            #expect(!leaf.hasExtension(oid: "1.2.840.113635.100.6.11.2"))
            // Only dotted numeric OIDs: names and junk find nothing.
            #expect(!leaf.hasExtension(oid: "basicConstraints"))
            #expect(!leaf.hasExtension(oid: "not an oid"))
            #expect(leaf.extensionValue(oid: "1.2.3.4") == nil)
            #expect(leaf.isCriticalExtension(oid: "1.2.3.4") == nil)
        }

        @Test func publicKeyOfANonP256CertificateIsRefused() throws {
            // A self-signed P-384 certificate made with Python cryptography (Apple Root CA - G3 is P-384 too).
            let pem = """
                -----BEGIN CERTIFICATE-----
                MIIBhTCCAQygAwIBAgIUc6BOxfbJL7wcAQ4V0X/uZdLdY8MwCgYIKoZIzj0EAwMw
                GjEYMBYGA1UEAwwPUC0zODQgVGVzdCBSb290MB4XDTI1MDEwMTAwMDAwMFoXDTM1
                MDEwMTAwMDAwMFowGjEYMBYGA1UEAwwPUC0zODQgVGVzdCBSb290MHYwEAYHKoZI
                zj0CAQYFK4EEACIDYgAE5ZTctfAkZ46csb/NgaHRDSwbvzzy+FcWPIE674hdxoJH
                bm+75zlf/9xxKKkcuLC2F1PGkrp9hCiT+RzOMfA/emUjnssYz5BMyYa3jiLPTftY
                vtAj5rIAS/IPQEe2nYs0oxMwETAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMD
                A2cAMGQCMCQsSo5x9qFUmfIuJKNV/Q7PsZP83MCHhE9OrFwUUWJcBmvitZM/WWpX
                K1hIRrPhJgIwcFNcxiZDw+MZostKXCxC0sNo/Mm0GHRQd3UpCzyGU/wAN1Vu+R4a
                mf01nykCw0Fw
                -----END CERTIFICATE-----
                """
            let certificate = try Certificate(pemRepresentation: pem)
            #expect(certificate.subjectCommonName == "P-384 Test Root")
            expectSigningError(.invalidKey) { _ = try certificate.publicKey() }
        }
    }
#endif
