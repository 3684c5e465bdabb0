// Linux only: it needs OpenSSL-only parts of Signing (the test CA, certificate building, extensions by OID).
#if !canImport(CryptoKit)
    import Foundation
    import Signing
    import Testing

    /// Checks our output with an independent implementation: Python `cryptography` (its own bundled OpenSSL build and
    /// its own X.509 path validation, written in Rust).
    @Suite(.enabled(if: PythonInterop.isAvailable, "python3 with the cryptography package is not installed"))
    struct PythonInteropTests {}

    enum PythonInterop {
        static let isAvailable: Bool = (try? runNow(script: "import cryptography", arguments: []).status) == 0

        /// Runs `python3 -c script arguments...`, waiting without holding a thread of the cooperative pool: the exit
        /// status and the output (standard output, then standard error).
        static func run(script: String, arguments: [String]) async throws -> (status: Int32, output: String) {
            let result = try await ChildProcess.run(
                "/usr/bin/env", ["python3", "-c", script] + arguments,
                environment: ProcessInfo.processInfo.environment, timeout: 300)
            return (result.status, result.stdout + result.stderr)
        }

        /// Runs `python3 -c script arguments...` blocking (once, for the traits that decide whether a test runs).
        static func runNow(script: String, arguments: [String]) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", script] + arguments
            // The real interpreter, not pyenv's shims (dozens of shell processes a call).
            process.environment = RealPython.skippingShims(ProcessInfo.processInfo.environment)
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: output, as: UTF8.self))
        }

        /// Loads the CA files, checks the chain shape and signatures, validates the path, and verifies an ES256 JWS.
        static let verifierScript = #"""
            import base64, datetime, json, sys
            from cryptography import x509
            from cryptography.x509 import ObjectIdentifier
            from cryptography.x509.verification import PolicyBuilder, Store, ExtensionPolicy
            from cryptography.hazmat.primitives import hashes
            from cryptography.hazmat.primitives.serialization import Encoding
            from cryptography.hazmat.primitives.asymmetric import ec
            from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

            directory, compact, when = sys.argv[1], sys.argv[2], int(sys.argv[3])
            load = lambda name: x509.load_pem_x509_certificate(open(f"{directory}/{name}.pem", "rb").read())
            root, intermediate, leaf = load("root"), load("intermediate"), load("leaf")
            assert open(f"{directory}/root.der", "rb").read() == root.public_bytes(Encoding.DER)

            # Signatures up the chain, and the shape Apple's chain has.
            intermediate.verify_directly_issued_by(root)
            leaf.verify_directly_issued_by(intermediate)
            root.verify_directly_issued_by(root)
            for cert in (root, intermediate, leaf):
                assert isinstance(cert.public_key().curve, ec.SECP256R1), cert.subject
                assert cert.signature_hash_algorithm.name == "sha256"
                assert cert.version == x509.Version.v3
                cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier)
                assert cert.extensions.get_extension_for_class(x509.BasicConstraints).critical
            for cert, issuer in ((intermediate, root), (leaf, intermediate)):
                aki = cert.extensions.get_extension_for_class(x509.AuthorityKeyIdentifier).value
                ski = issuer.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
                assert aki.key_identifier == ski.digest
            assert intermediate.extensions.get_extension_for_class(x509.BasicConstraints).value.path_length == 0
            assert not leaf.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
            for cert, oid in ((intermediate, "1.2.840.113635.100.6.2.1"), (leaf, "1.2.840.113635.100.6.11.1")):
                marker = cert.extensions.get_extension_for_oid(ObjectIdentifier(oid))
                assert not marker.critical and marker.value.value == b"\x05\x00", marker

            # RFC 5280 path validation against the root alone, at the given time: Web PKI rules for the CAs; the leaf
            # is a signing certificate, not a TLS client, so no SAN or EKU is required of it.
            verifier = (PolicyBuilder().store(Store([root]))
                        .time(datetime.datetime.fromtimestamp(when, datetime.timezone.utc))
                        .extension_policies(ca_policy=ExtensionPolicy.webpki_defaults_ca(),
                                            ee_policy=ExtensionPolicy.permit_all())
                        .build_client_verifier())
            verifier.verify(leaf, [intermediate])

            # The ES256 JWS: header x5c matches, signature verifies with the leaf key.
            head, body, sig = compact.split(".")
            pad = lambda s: s + "=" * (-len(s) % 4)
            header = json.loads(base64.urlsafe_b64decode(pad(head)))
            assert header["alg"] == "ES256" and header["typ"] == "JWT", header
            assert [base64.b64decode(c) for c in header["x5c"]] == [c.public_bytes(Encoding.DER)
                                                                    for c in (leaf, intermediate, root)]
            raw = base64.urlsafe_b64decode(pad(sig))
            assert len(raw) == 64
            der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
            leaf.public_key().verify(der, f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256()))
            print("interop ok")
            """#
    }

    extension PythonInteropTests {
        @Test func pythonCryptographyAcceptsOurChainAndSignature() async throws {
            let directory = try TemporaryDirectory()
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            try ca.write(to: directory.path)
            let payload = Array(#"{"transactionId":"2000000912345678"}"#.utf8)
            let compact = try CompactJWS.sign(
                payload: payload, with: .es256(key: ca.leafKey, x5c: ca.chain, keyID: nil))
            let when = String(Int(TestDates.dayAfterStart.timeIntervalSince1970))

            let result = try await PythonInterop.run(
                script: PythonInterop.verifierScript,
                arguments: [directory.path, compact, when]
            )
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("interop ok"), "\(result.output)")
        }

        /// The same script must fail on a bad signature, or the check above proves nothing.
        @Test func pythonCryptographyRejectsATamperedSignature() async throws {
            let directory = try TemporaryDirectory()
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            try ca.write(to: directory.path)
            let compact = try CompactJWS.sign(
                payload: [1, 2, 3], with: .es256(key: ca.leafKey, x5c: ca.chain, keyID: nil))
            var parts = compact.split(separator: ".").map(String.init)
            var signature = try #require(Base64URL.decode(parts[2]))
            signature[40] ^= 0x01
            parts[2] = Base64URL.encode(signature)
            let when = String(Int(TestDates.dayAfterStart.timeIntervalSince1970))

            let result = try await PythonInterop.run(
                script: PythonInterop.verifierScript,
                arguments: [directory.path, parts.joined(separator: "."), when]
            )
            #expect(result.status != 0)
            #expect(result.output.contains("InvalidSignature"), "\(result.output)")
        }

        /// Python's path validation must also reject the chain at a time after it expired.
        @Test func pythonCryptographyRejectsAnExpiredChain() async throws {
            let directory = try TemporaryDirectory()
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start, years: 1)
            try ca.write(to: directory.path)
            let compact = try CompactJWS.sign(payload: [], with: .es256(key: ca.leafKey, x5c: ca.chain, keyID: nil))
            let late = String(Int(TestDates.start.timeIntervalSince1970) + 3 * 365 * 86_400)
            let result = try await PythonInterop.run(
                script: PythonInterop.verifierScript,
                arguments: [directory.path, compact, late]
            )
            #expect(result.status != 0)
            #expect(result.output.contains("VerificationError"), "\(result.output)")
        }
    }
#endif
