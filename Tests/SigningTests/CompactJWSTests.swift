import Foundation
import Signing
import Testing

@Suite struct CompactJWSTests {}

extension CompactJWSTests {
    static let payload = Array(
        #"{"transactionId":"2000000912345678","productId":"ai.voicedebrief.app.credit.500"}"#.utf8
    )
    static let secret = Array("shared secret for the mock store".utf8)

    @Test func hs256SignParseVerify() throws {
        let compact = try CompactJWS.sign(payload: Self.payload, with: .hs256(secret: Self.secret))
        let jws = try CompactJWS.parse(compact)
        #expect(jws.compact == compact)
        #expect(jws.header == JWSHeader(alg: "HS256", typ: "JWT"))
        #expect(jws.headerBytes == Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        #expect(jws.payload == Self.payload)
        #expect(jws.signature.count == 32)
        #expect(jws.signingInput == Array(compact.split(separator: ".").prefix(2).joined(separator: ".").utf8))
        try jws.verifyHS256(secret: Self.secret)
        expectSigningError(.invalidSignature) { try jws.verifyHS256(secret: Array("another secret".utf8)) }
        expectSigningError(.algorithmMismatch) { try jws.verifyES256(publicKey: P256PrivateKey.generate().publicKey) }
        expectSigningError(.invalidArgument) { try jws.verifyHS256(secret: []) }
    }

    @Test func typCanBeOmitted() throws {
        let compact = try CompactJWS.sign(payload: [], typ: nil, with: .hs256(secret: Self.secret))
        let jws = try CompactJWS.parse(compact)
        #expect(jws.headerBytes == Array(#"{"alg":"HS256"}"#.utf8))
        #expect(jws.payload.isEmpty)
        try jws.verifyHS256(secret: Self.secret)
    }

    @Test func es256WithPublicKey() throws {
        let key = try P256PrivateKey.generate()
        let compact = try CompactJWS.sign(
            payload: Self.payload,
            with: .es256(key: key, x5c: nil, keyID: "Apple_Xcode_Key")
        )
        let jws = try CompactJWS.parse(compact)
        #expect(jws.header == JWSHeader(alg: "ES256", typ: "JWT", kid: "Apple_Xcode_Key"))
        #expect(jws.signature.count == 64)
        try jws.verifyES256(publicKey: key.publicKey)
        expectSigningError(.invalidSignature) { try jws.verifyES256(publicKey: P256PrivateKey.generate().publicKey) }
        expectSigningError(.algorithmMismatch) { try jws.verifyHS256(secret: Self.secret) }
    }

    // Linux only: these need the test CA (OpenSSL certificate building).
    #if !canImport(CryptoKit)
        @Test func es256WithX5CChain() throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            let compact = try CompactJWS.sign(
                payload: Self.payload,
                with: .es256(key: ca.leafKey, x5c: ca.chain, keyID: nil)
            )
            let jws = try CompactJWS.parse(compact)
            let x5c = try #require(jws.header.x5c)
            #expect(x5c == ca.chain.map { Data($0.derRepresentation).base64EncodedString() })
            #expect(
                String(decoding: jws.headerBytes, as: UTF8.self).hasPrefix(#"{"alg":"ES256","typ":"JWT","x5c":["MII"#))
            try jws.verifyES256(chain: CertificateChainVerifier(trustedRoot: ca.root), at: TestDates.dayAfterStart)
            try jws.verifyES256(publicKey: ca.leafKey.publicKey)

            // Another pinned root, a date outside validity: rejected by the chain check.
            let other = try TestCertificateAuthority.make(validFrom: TestDates.start)
            expectSigningError(.invalidChain) {
                try jws.verifyES256(
                    chain: CertificateChainVerifier(trustedRoot: other.root), at: TestDates.dayAfterStart)
            }
            expectSigningError(.invalidChain) {
                try jws.verifyES256(
                    chain: CertificateChainVerifier(trustedRoot: ca.root),
                    at: TestDates.start.addingTimeInterval(-1)
                )
            }
        }

        /// A valid chain whose leaf did not make the signature: the chain passes, the signature must not.
        @Test func es256ChainWithSignatureFromAnotherKey() throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            let header = JWSHeader(
                alg: "ES256",
                typ: "JWT",
                x5c: ca.chain.map { Data($0.derRepresentation).base64EncodedString() }
            )
            let headerJSON = try JSONEncoder().encode(header)
            let input = Base64URL.encode(Array(headerJSON)) + "." + Base64URL.encode(Self.payload)
            let forged = try P256PrivateKey.generate().signature(for: Array(input.utf8))
            let jws = try CompactJWS.parse(input + "." + Base64URL.encode(forged))
            expectSigningError(.invalidSignature) {
                try jws.verifyES256(chain: CertificateChainVerifier(trustedRoot: ca.root), at: TestDates.dayAfterStart)
            }
        }

        @Test func signRefusesX5CWhoseLeafIsNotTheKey() throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            expectSigningError(.invalidArgument) {
                _ = try CompactJWS.sign(
                    payload: Self.payload,
                    with: .es256(key: ca.intermediateKey, x5c: ca.chain, keyID: nil)
                )
            }
            expectSigningError(.invalidArgument) { _ = try CompactJWS.sign(payload: [], with: .hs256(secret: [])) }
        }

        @Test func es256ChainRequiresThreeX5CEntries() throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            let verifier = CertificateChainVerifier(trustedRoot: ca.root)
            let twoCerts = try CompactJWS.sign(
                payload: Self.payload,
                with: .es256(key: ca.leafKey, x5c: Array(ca.chain.prefix(2)), keyID: nil)
            )
            expectSigningError(.invalidChain) {
                try CompactJWS.parse(twoCerts).verifyES256(chain: verifier, at: TestDates.dayAfterStart)
            }
            let noChain = try CompactJWS.sign(
                payload: Self.payload, with: .es256(key: ca.leafKey, x5c: nil, keyID: nil))
            expectSigningError(.malformedJWS) {
                try CompactJWS.parse(noChain).verifyES256(chain: verifier, at: TestDates.dayAfterStart)
            }
        }

        @Test func es256ChainRejectsMalformedX5CEntries() throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            let verifier = CertificateChainVerifier(trustedRoot: ca.root)
            let good = ca.chain.map { Data($0.derRepresentation).base64EncodedString() }
            for (entries, code) in [
                ([good[0], "not base64!", good[2]], SigningError.Code.malformedJWS),
                ([good[0], Data([1, 2, 3]).base64EncodedString(), good[2]], .invalidCertificate),
            ] {
                let compact = try jwsWithHeader(JWSHeader(alg: "ES256", x5c: entries), key: ca.leafKey)
                let error = expectSigningError(code) {
                    try CompactJWS.parse(compact).verifyES256(chain: verifier, at: TestDates.dayAfterStart)
                }
                #expect(error?.message.contains("x5c[1]") == true, "\(String(describing: error))")
            }
        }
    #endif

    @Test func tamperedPayloadHeaderOrSignatureIsRejected() throws {
        let key = try P256PrivateKey.generate()
        for signer in [JWSSigner.hs256(secret: Self.secret), .es256(key: key, x5c: nil, keyID: nil)] {
            let compact = try CompactJWS.sign(payload: Self.payload, with: signer)
            let parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let otherPayload = Base64URL.encode(Array(#"{"transactionId":"2000000912345679"}"#.utf8))
            // Same alg, different bytes: passes the algorithm check, so only the signature can reject it.
            let alg = try CompactJWS.parse(compact).header.alg
            let otherHeader = Base64URL.encode(Array(#"{"alg":"\#(alg)","typ":"jwt"}"#.utf8))
            var signature = try #require(Base64URL.decode(parts[2]))
            signature[5] ^= 0x80
            let tampered = [
                [parts[0], otherPayload, parts[2]],
                [otherHeader, parts[1], parts[2]],
                [parts[0], parts[1], Base64URL.encode(signature)],
                [parts[0], parts[1], Base64URL.encode(Array(signature.dropLast()))],
                [parts[0], parts[1], ""],
            ]
            for variant in tampered {
                let jws = try CompactJWS.parse(variant.joined(separator: "."))
                expectSigningError(.invalidSignature) {
                    switch signer {
                    case .hs256(let secret): try jws.verifyHS256(secret: secret)
                    case .es256(let key, _, _): try jws.verifyES256(publicKey: key.publicKey)
                    case .none: Issue.record("unexpected signer")
                    }
                }
            }
            // The untouched JWS still verifies, so the rejections above are due to the edits.
            let original = try CompactJWS.parse(compact)
            switch signer {
            case .hs256(let secret): try original.verifyHS256(secret: secret)
            case .es256(let key, _, _): try original.verifyES256(publicKey: key.publicKey)
            case .none: break
            }
        }
    }

    // Linux only: it needs the test CA (OpenSSL certificate building).
    #if !canImport(CryptoKit)
        @Test func algNoneIsNeverAccepted() throws {
            let compact = try CompactJWS.sign(payload: Self.payload, with: .none)
            #expect(compact.hasSuffix("."))
            let jws = try CompactJWS.parse(compact)
            #expect(jws.header.alg == "none")
            #expect(jws.signature.isEmpty)
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            for verify in [
                { try jws.verifyHS256(secret: Self.secret) },
                { try jws.verifyES256(publicKey: ca.leafKey.publicKey) },
                {
                    try jws.verifyES256(
                        chain: CertificateChainVerifier(trustedRoot: ca.root), at: TestDates.dayAfterStart)
                },
            ] as [() throws -> Void] {
                let error = expectSigningError(.algorithmMismatch, verify)
                #expect(error?.message.contains("never accepted") == true)
            }
            // "none" with a valid-looking HS256 MAC attached is still refused: alg decides, not the signature length.
            let mac = try HMACSHA256.authenticationCode(for: jws.signingInput, key: Self.secret)
            let withMAC = try CompactJWS.parse(compact + Base64URL.encode(mac))
            expectSigningError(.algorithmMismatch) { try withMAC.verifyHS256(secret: Self.secret) }
            // Case variants of none are not HS256 either.
            let upper = try jwsWithHeaderBytes(Array(#"{"alg":"None"}"#.utf8), signature: mac)
            expectSigningError(.algorithmMismatch) { try CompactJWS.parse(upper).verifyHS256(secret: Self.secret) }
        }
    #endif

    @Test(arguments: [
        ("", "empty"),
        ("abc", "3 parts"),
        ("a.b", "3 parts"),
        ("a.b.c.d", "3 parts"),
        ("a.b.c.d.e", "JWE"),
        (".e30.", "header (part 1 of 3) is empty"),
        ("e30=.e30.", "header (part 1 of 3) is not unpadded base64url"),
        ("e3+.e30.", "header (part 1 of 3) is not unpadded base64url"),
        ("eyJhbGciOiJIUzI1NiJ9.e30=.", "payload (part 2 of 3)"),
        ("eyJhbGciOiJIUzI1NiJ9.e30.AA=", "signature (part 3 of 3)"),
        ("eyJhbGciOiJIUzI1NiJ9.e30.A", "signature (part 3 of 3)"),
        ("e30.e30.", "string \"alg\""),  // {}
        ("W10.e30.", "string \"alg\""),  // []
        ("bnVsbA.e30.", "string \"alg\""),  // null
        ("eyJhbGciOjF9.e30.", "string \"alg\""),  // {"alg":1}
        ("eyJhbGciOiIifQ.e30.", "empty \"alg\""),  // {"alg":""}
        ("eyJhbGciOiJIUzI1NiJ9IA.e30.", "part 1"),  // {"alg":"HS256"} then a stray space: still valid JSON
        ("eyJhbGciOiJIUzI1NiJ9eA.e30.", "string \"alg\""),  // {"alg":"HS256"}x
    ])
    func malformedCompactStringsAreRejectedClearly(compact: String, expected: String) throws {
        if expected == "part 1" {
            // Trailing whitespace after the object is valid JSON; this case documents that it parses.
            #expect(try CompactJWS.parse(compact).header.alg == "HS256")
            return
        }
        let error = expectSigningError(.malformedJWS) { _ = try CompactJWS.parse(compact) }
        #expect(error?.message.contains(expected) == true, "\(String(describing: error))")
    }

    @Test func duplicateHeaderMembersAreRejected() throws {
        for header in [
            #"{"alg":"HS256","alg":"none"}"#,
            #"{"alg":"none","alg":"HS256"}"#,
            #"{"alg":"HS256","typ":"JWT","typ":"JOSE"}"#,
            #"{"alg":"HS256","\u0061lg":"none"}"#,
            #"{"alg":"HS256", "x5c":["a","b"], "ext":{"k":[1,{"alg":2}]}, "alg" : "none"}"#,
        ] {
            let compact = try jwsWithHeaderBytes(Array(header.utf8), signature: [1])
            let error = expectSigningError(.malformedJWS) { _ = try CompactJWS.parse(compact) }
            #expect(error?.message.contains("more than once") == true, "\(header): \(String(describing: error))")
        }
        // Nested members with the same names as top-level ones are not duplicates.
        let nested = try jwsWithHeaderBytes(
            Array(#"{"alg":"HS256","kid":"x","ext":{"alg":"none","kid":[1]}}"#.utf8),
            signature: [1]
        )
        #expect(try CompactJWS.parse(nested).header.kid == "x")
    }

    @Test func critIsRejected() throws {
        let compact = try jwsWithHeaderBytes(Array(#"{"alg":"HS256","crit":["exp"],"exp":1}"#.utf8), signature: [1])
        let error = expectSigningError(.malformedJWS) { _ = try CompactJWS.parse(compact) }
        #expect(error?.message.contains("crit") == true)
    }

    @Test func sizeLimit() throws {
        let header = Base64URL.encode(Array(#"{"alg":"HS256"}"#.utf8))
        let fits = header + "." + String(repeating: "A", count: CompactJWS.maximumLength - header.count - 2) + "."
        #expect(fits.utf8.count == CompactJWS.maximumLength)
        _ = try CompactJWS.parse(fits)
        let error = expectSigningError(.malformedJWS) { _ = try CompactJWS.parse(fits + "A") }
        #expect(error?.message.contains("limit is 65536") == true)
    }

    /// The signing input is the text as received, so the header bytes stay exactly as sent (member order, spaces).
    @Test func signingInputAndHeaderBytesArePreservedExactly() throws {
        let headerText = "{ \"typ\" : \"JWT\",\n \"alg\":\"HS256\" }"
        let input = Base64URL.encode(Array(headerText.utf8)) + "." + Base64URL.encode(Self.payload)
        let mac = try HMACSHA256.authenticationCode(for: Array(input.utf8), key: Self.secret)
        let jws = try CompactJWS.parse(input + "." + Base64URL.encode(mac))
        #expect(jws.headerBytes == Array(headerText.utf8))
        #expect(jws.signingInput == Array(input.utf8))
        try jws.verifyHS256(secret: Self.secret)
    }

    @Test func headerStringsAreEscaped() throws {
        let key = try P256PrivateKey.generate()
        let keyID = "quote\" backslash\\ newline\n tab\t bell\u{7} slash/ é"
        let jws = try CompactJWS.parse(CompactJWS.sign(payload: [], with: .es256(key: key, x5c: nil, keyID: keyID)))
        #expect(jws.header.kid == keyID)
        #expect(String(decoding: jws.headerBytes, as: UTF8.self).contains(#"bell\u0007 slash/"#))
        try jws.verifyES256(publicKey: key.publicKey)
    }

    private func jwsWithHeaderBytes(_ header: [UInt8], signature: [UInt8]) throws -> String {
        Base64URL.encode(header) + "." + Base64URL.encode(Self.payload) + "." + Base64URL.encode(signature)
    }

    private func jwsWithHeader(_ header: JWSHeader, key: P256PrivateKey) throws -> String {
        let input = Base64URL.encode(Array(try JSONEncoder().encode(header))) + "." + Base64URL.encode(Self.payload)
        return input + "." + Base64URL.encode(try key.signature(for: Array(input.utf8)))
    }
}
