// Linux only: it needs OpenSSL-only parts of Signing (the test CA, certificate building, extensions by OID).
#if !canImport(CryptoKit)
    import Foundation
    import Signing
    import Testing

    @Suite struct CertificateChainVerifierTests {}

    extension CertificateChainVerifierTests {
        @Test func verifiesAnAppleShapedChain() throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            try CertificateChainVerifier(trustedRoot: ca.root).verify(ca.chain, at: TestDates.dayAfterStart)
        }

        @Test(arguments: [0, 1, 2, 4])
        func requiresExactlyThreeCertificates(_ count: Int) throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            let chain = Array((ca.chain + [ca.root]).prefix(count))
            let error = expectSigningError(.invalidChain) {
                try CertificateChainVerifier(trustedRoot: ca.root).verify(chain, at: TestDates.dayAfterStart)
            }
            #expect(error?.message.contains("exactly 3") == true)
        }

        @Test func rejectsAnotherRoot() throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            let stranger = try TestCertificateAuthority.make(validFrom: TestDates.start)
            let error = expectSigningError(.invalidChain) {
                try CertificateChainVerifier(trustedRoot: stranger.root).verify(ca.chain, at: TestDates.dayAfterStart)
            }
            #expect(
                error?.message.contains("unable to get local issuer certificate") == true,
                "\(String(describing: error))"
            )
        }

        /// The root in the chain is never trusted: a full chain from another CA fails even though it is
        /// self-consistent.
        @Test func chainsOwnRootIsNotTrusted() throws {
            let pinned = try TestCertificateAuthority.make(validFrom: TestDates.start)
            let attacker = try TestCertificateAuthority.make(validFrom: TestDates.start)
            expectSigningError(.invalidChain) {
                try CertificateChainVerifier(trustedRoot: pinned.root).verify(
                    attacker.chain, at: TestDates.dayAfterStart)
            }
        }

        /// Like Apple's verifier, x5c[2] plays no part: the root comes from the pinned trust store.
        @Test func thirdCertificateIsIgnored() throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            let unrelated = try TestCertificateAuthority.make(validFrom: TestDates.start).root
            try CertificateChainVerifier(trustedRoot: ca.root).verify(
                [ca.leaf, ca.intermediate, unrelated],
                at: TestDates.dayAfterStart
            )
        }

        @Test func rejectsExpiredAndNotYetValidChains() throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start, years: 1)
            let verifier = CertificateChainVerifier(trustedRoot: ca.root)
            let expired = expectSigningError(.invalidChain) {
                try verifier.verify(ca.chain, at: TestDates.start.addingTimeInterval(2 * 365 * 86_400))
            }
            #expect(expired?.message.contains("certificate has expired") == true, "\(String(describing: expired))")
            let early = expectSigningError(.invalidChain) {
                try verifier.verify(ca.chain, at: TestDates.start.addingTimeInterval(-86_400))
            }
            #expect(early?.message.contains("not yet valid") == true, "\(String(describing: early))")
            // notBefore is inside the validity period. OpenSSL treats the notAfter second itself as expired (RFC 5280
            // says inclusive), so the last accepted second is one before it.
            try verifier.verify(ca.chain, at: ca.leaf.notBefore)
            try verifier.verify(ca.chain, at: ca.leaf.notAfter.addingTimeInterval(-1))
        }

        /// A leaf from another intermediate with the same names under the same root must not chain to this one.
        @Test func rejectsLeafSignedByAnotherIntermediate() throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            let sibling = try ca.makingNewIntermediateAndLeaf(validFrom: TestDates.start)
            #expect(sibling.intermediate.subjectCommonName == ca.intermediate.subjectCommonName)
            let verifier = CertificateChainVerifier(trustedRoot: ca.root)
            // Each chain on its own is fine...
            try verifier.verify(sibling.chain, at: TestDates.dayAfterStart)
            // ...but mixing the sibling's leaf with this intermediate is not.
            let error = expectSigningError(.invalidChain) {
                try verifier.verify([sibling.leaf, ca.intermediate, ca.root], at: TestDates.dayAfterStart)
            }
            #expect(error?.message.contains("depth 0") == true, "\(String(describing: error))")
        }

        /// Certificates out of order. [intermediate, leaf, root] is a valid path on its own (the intermediate chains to
        /// the root), so only the marker check can refuse it; [leaf, root, intermediate] has no path at all.
        @Test func rejectsWrongOrder() throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            let verifier = CertificateChainVerifier(trustedRoot: ca.root)
            let swapped = expectSigningError(.invalidChain) {
                try verifier.verify([ca.intermediate, ca.leaf, ca.root], at: TestDates.dayAfterStart)
            }
            #expect(swapped?.message.contains(AppleOID.intermediateMarker) == true, "\(String(describing: swapped))")
            let noPath = expectSigningError(.invalidChain) {
                try verifier.verify([ca.leaf, ca.root, ca.intermediate], at: TestDates.dayAfterStart)
            }
            #expect(noPath?.message.contains("unable to get local issuer") == true, "\(String(describing: noPath))")
        }

        @Test func rejectsMissingIntermediateMarker() throws {
            let ca = try TestCertificateAuthority.make(
                validFrom: TestDates.start,
                options: .init(intermediateMarker: false)
            )
            let error = expectSigningError(.invalidChain) {
                try CertificateChainVerifier(trustedRoot: ca.root).verify(ca.chain, at: TestDates.dayAfterStart)
            }
            #expect(error?.message.contains(AppleOID.intermediateMarker) == true)
            // Without the Apple requirement the same chain is fine.
            try CertificateChainVerifier(trustedRoot: ca.root, requireAppleMarkers: false).verify(
                ca.chain,
                at: TestDates.dayAfterStart
            )
        }

        @Test func rejectsMissingLeafMarker() throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start, options: .init(leafMarker: false))
            let error = expectSigningError(.invalidChain) {
                try CertificateChainVerifier(trustedRoot: ca.root).verify(ca.chain, at: TestDates.dayAfterStart)
            }
            #expect(error?.message.contains(AppleOID.leafMarker) == true)
            try CertificateChainVerifier(trustedRoot: ca.root, requireAppleMarkers: false).verify(
                ca.chain,
                at: TestDates.dayAfterStart
            )
        }

        /// Strict X.509 checking needs key identifiers (apple-store.md section 6: without SKI/AKI Apple's verifier
        /// fails).
        @Test func strictCheckingRequiresKeyIdentifiers() throws {
            let ca = try TestCertificateAuthority.make(
                validFrom: TestDates.start, options: .init(keyIdentifiers: false))
            let error = expectSigningError(.invalidChain) {
                try CertificateChainVerifier(trustedRoot: ca.root).verify(ca.chain, at: TestDates.dayAfterStart)
            }
            #expect(error?.message.lowercased().contains("key identifier") == true, "\(String(describing: error))")
        }

        @Test func rejectsATamperedLeaf() throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            var der = ca.leaf.derRepresentation
            // Change one byte inside the common name: the DER still parses but the signature no longer matches.
            let name = Array("Receipt Signing".utf8)
            let start = try #require(der.firstRange(of: name)).lowerBound
            der[start] = UInt8(ascii: "D")
            let tampered = try Certificate(derRepresentation: der)
            #expect(tampered.subjectCommonName == "VoiceDebrief Mock Store Deceipt Signing")
            let error = expectSigningError(.invalidChain) {
                try CertificateChainVerifier(trustedRoot: ca.root).verify(
                    [tampered, ca.intermediate, ca.root],
                    at: TestDates.dayAfterStart
                )
            }
            #expect(error?.message.contains("signature failure") == true, "\(String(describing: error))")
        }
    }
#endif
