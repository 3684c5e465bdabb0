// Linux only: it needs OpenSSL-only parts of Signing (the test CA, certificate building, extensions by OID).
#if !canImport(CryptoKit)
    import Foundation
    import Signing
    import Testing

    @Suite struct TestCertificateAuthorityTests {}

    extension TestCertificateAuthorityTests {
        @Test func makesAppleShapedChain() throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start, years: 10)
            #expect(ca.chain == [ca.leaf, ca.intermediate, ca.root])
            #expect(ca.root.subjectCommonName == "VoiceDebrief Mock Store Root CA")
            #expect(ca.intermediate.subjectCommonName == "VoiceDebrief Mock Store Intermediate CA")
            #expect(ca.leaf.subjectCommonName == "VoiceDebrief Mock Store Receipt Signing")

            // Marker extensions: present, non-critical, value NULL (extnValue 04 02 05 00), only where they belong.
            #expect(ca.intermediate.extensionValue(oid: AppleOID.intermediateMarker) == [0x05, 0x00])
            #expect(ca.intermediate.isCriticalExtension(oid: AppleOID.intermediateMarker) == false)
            #expect(ca.leaf.extensionValue(oid: AppleOID.leafMarker) == [0x05, 0x00])
            #expect(ca.leaf.isCriticalExtension(oid: AppleOID.leafMarker) == false)
            #expect(!ca.leaf.hasExtension(oid: AppleOID.intermediateMarker))
            #expect(!ca.intermediate.hasExtension(oid: AppleOID.leafMarker))
            #expect(!ca.root.hasExtension(oid: AppleOID.intermediateMarker))
            // The full extension DER contains the marker as Apple encodes it.
            let markerExtension: [UInt8] =
                [0x06, 0x0a, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x63, 0x64, 0x06, 0x02, 0x01]
                + [0x04, 0x02, 0x05, 0x00]
            #expect(ca.intermediate.derRepresentation.contains(markerExtension))

            let basicConstraints = "2.5.29.19"
            let keyUsage = "2.5.29.15"
            let subjectKeyID = "2.5.29.14"
            let authorityKeyID = "2.5.29.35"
            for certificate in ca.chain {
                #expect(certificate.isCriticalExtension(oid: basicConstraints) == true)
                #expect(certificate.isCriticalExtension(oid: keyUsage) == true)
                #expect(certificate.hasExtension(oid: subjectKeyID))
            }
            #expect(ca.intermediate.hasExtension(oid: authorityKeyID))
            #expect(ca.leaf.hasExtension(oid: authorityKeyID))
            // CA:TRUE pathlen 0 is SEQUENCE { BOOLEAN TRUE, INTEGER 0 }; CA:FALSE is the empty SEQUENCE.
            #expect(ca.root.extensionValue(oid: basicConstraints) == [0x30, 0x03, 0x01, 0x01, 0xff])
            #expect(
                ca.intermediate.extensionValue(oid: basicConstraints) == [
                    0x30, 0x06, 0x01, 0x01, 0xff, 0x02, 0x01, 0x00,
                ]
            )
            #expect(ca.leaf.extensionValue(oid: basicConstraints) == [0x30, 0x00])
            // keyUsage BIT STRING: keyCertSign + cRLSign = 0x06; digitalSignature = 0x80.
            #expect(ca.root.extensionValue(oid: keyUsage) == [0x03, 0x02, 0x01, 0x06])
            #expect(ca.leaf.extensionValue(oid: keyUsage) == [0x03, 0x02, 0x07, 0x80])

            #expect(try ca.leaf.publicKey().derRepresentation == ca.leafKey.publicKey.derRepresentation)
            #expect(try ca.intermediate.publicKey().derRepresentation == ca.intermediateKey.publicKey.derRepresentation)
            #expect(try ca.root.publicKey().derRepresentation == ca.rootKey.publicKey.derRepresentation)
        }

        @Test func validityAndSerials() throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start, years: 3)
            let threeYearsLater = Date(timeIntervalSince1970: 1_830_297_600)  // 2028-01-01T00:00:00Z
            for certificate in ca.chain {
                #expect(certificate.notBefore == TestDates.start)
                #expect(certificate.notAfter == threeYearsLater)
                #expect(certificate.serialNumber.count == 16)
            }
            let other = try TestCertificateAuthority.make(validFrom: TestDates.start, years: 3)
            #expect(Set(ca.chain.map(\.serialNumber) + other.chain.map(\.serialNumber)).count == 6)
            expectSigningError(.invalidArgument) {
                _ = try TestCertificateAuthority.make(validFrom: TestDates.start, years: 0)
            }
        }

        @Test func customCommonNames() throws {
            let ca = try TestCertificateAuthority.make(commonNamePrefix: "Ünïcode Store", validFrom: TestDates.start)
            #expect(ca.root.subjectCommonName == "Ünïcode Store Root CA")
        }

        @Test func writeAndReadBack() throws {
            let directory = try TemporaryDirectory()
            let caDirectory = directory.file("ca")
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            try ca.write(to: caDirectory)

            let names = try FileManager.default.contentsOfDirectory(atPath: caDirectory).sorted()
            #expect(
                names == [
                    "intermediate.key", "intermediate.pem", "leaf.key", "leaf.pem", "root.der", "root.key", "root.pem",
                ]
            )
            for keyName in ["root.key", "intermediate.key", "leaf.key"] {
                var status = stat()
                try #require(stat(caDirectory + "/" + keyName, &status) == 0)
                #expect(status.st_mode & 0o777 == 0o600, "\(keyName)")
            }
            let rootPEM = try String(contentsOfFile: caDirectory + "/root.pem", encoding: .utf8)
            #expect(rootPEM.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
            #expect(
                try Array(Data(contentsOf: URL(fileURLWithPath: caDirectory + "/root.der")))
                    == ca.root.derRepresentation
            )
            let keyPEM = try String(contentsOfFile: caDirectory + "/leaf.key", encoding: .utf8)
            #expect(keyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))

            let loaded = try TestCertificateAuthority.read(from: caDirectory)
            #expect(loaded.chain == ca.chain)
            #expect(loaded.leafKey.publicKey.derRepresentation == ca.leafKey.publicKey.derRepresentation)
            #expect(loaded.rootKey.publicKey.derRepresentation == ca.rootKey.publicKey.derRepresentation)
            // The loaded chain still verifies and the loaded leaf key still signs for it.
            try CertificateChainVerifier(trustedRoot: loaded.root).verify(loaded.chain, at: TestDates.dayAfterStart)
            let message = Array("signed after reload".utf8)
            #expect(try loaded.leaf.publicKey().isValidSignature(loaded.leafKey.signature(for: message), for: message))

            // Writing again over an existing directory works.
            try ca.write(to: caDirectory)
        }

        @Test func readRefusesAWideKeyFileAndAMismatchedKey() throws {
            let directory = try TemporaryDirectory()
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            try ca.write(to: directory.path)
            try #require(chmod(directory.file("leaf.key"), 0o644) == 0)
            let wide = expectSigningError(.insecureKeyFile) {
                _ = try TestCertificateAuthority.read(from: directory.path)
            }
            #expect(wide?.message.contains("chmod 600 \(directory.file("leaf.key"))") == true)

            try KeyFile.write(
                Array(try P256PrivateKey.generate().pemRepresentation.utf8), to: directory.file("leaf.key"))
            let mismatch = expectSigningError(.invalidKey) {
                _ = try TestCertificateAuthority.read(from: directory.path)
            }
            #expect(mismatch?.message.contains("does not belong") == true)
        }

        @Test func readRefusesAMissingFile() throws {
            let directory = try TemporaryDirectory()
            expectSigningError(.fileSystem) { _ = try TestCertificateAuthority.read(from: directory.path) }
        }
    }
#endif
