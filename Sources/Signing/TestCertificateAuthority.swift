// OpenSSL only, for Linux: the app does not need it, and Apple platforms have no OpenSSL to link.
#if !canImport(CryptoKit)
    import COpenSSL
    import Foundation

    /// A test certificate authority shaped like Apple's App Store signing chain (apple-store.md section 5), for the
    /// mock store and for tests: root → intermediate → leaf, all P-256 with ECDSA-SHA256 signatures.
    ///
    /// - root: self-signed; basicConstraints `CA:TRUE` (critical); keyUsage keyCertSign, cRLSign (critical); SKI.
    /// - intermediate: basicConstraints `CA:TRUE, pathlen:0` (critical); keyUsage keyCertSign, cRLSign (critical);
    ///   AKI and SKI; non-critical marker ``AppleOID/intermediateMarker`` whose value is NULL (`extnValue` 04 02 05
    /// 00).
    /// - leaf: basicConstraints `CA:FALSE` (critical); keyUsage digitalSignature (critical); AKI and SKI; non-critical
    ///   marker ``AppleOID/leafMarker`` with the same NULL value.
    ///
    /// Keys use the named curve; serial numbers are random 128-bit values.
    public struct TestCertificateAuthority: Sendable {
        /// The self-signed root, to pin in a ``CertificateChainVerifier``.
        public let root: Certificate
        /// The root's private key, which signs the intermediate.
        public let rootKey: P256PrivateKey
        /// The intermediate CA certificate, carrying ``AppleOID/intermediateMarker``.
        public let intermediate: Certificate
        /// The intermediate's private key, which signs the leaf.
        public let intermediateKey: P256PrivateKey
        /// The signing certificate, carrying ``AppleOID/leafMarker``.
        public let leaf: Certificate
        /// The leaf's private key: the key that signs ES256 JWS.
        public let leafKey: P256PrivateKey

        /// What ``make(commonNamePrefix:validFrom:years:options:)`` puts in the chain. The defaults are Apple's shape;
        /// the switches exist to build chains that verifiers must reject.
        public struct Options: Sendable {
            /// Put ``AppleOID/intermediateMarker`` on the intermediate.
            public var intermediateMarker: Bool
            /// Put ``AppleOID/leafMarker`` on the leaf.
            public var leafMarker: Bool
            /// Put subject key identifiers on all three and authority key identifiers on intermediate and leaf
            /// (strict X.509 verification needs them).
            public var keyIdentifiers: Bool

            /// Creates options; the defaults give Apple's shape.
            public init(intermediateMarker: Bool = true, leafMarker: Bool = true, keyIdentifiers: Bool = true) {
                self.intermediateMarker = intermediateMarker
                self.leafMarker = leafMarker
                self.keyIdentifiers = keyIdentifiers
            }
        }

        /// The chain in JWS `x5c` order: `[leaf, intermediate, root]`.
        public var chain: [Certificate] {
            [leaf, intermediate, root]
        }

        init(
            root: Certificate,
            rootKey: P256PrivateKey,
            intermediate: Certificate,
            intermediateKey: P256PrivateKey,
            leaf: Certificate,
            leafKey: P256PrivateKey
        ) {
            self.root = root
            self.rootKey = rootKey
            self.intermediate = intermediate
            self.intermediateKey = intermediateKey
            self.leaf = leaf
            self.leafKey = leafKey
        }

        /// Makes a new CA with fresh keys.
        ///
        /// Common names are "`prefix` Root CA", "`prefix` Intermediate CA" and "`prefix` Receipt Signing"; the
        /// organization is `prefix`. All three certificates are valid from `validFrom` for `years` years.
        /// - Throws: ``SigningError`` (`invalidArgument`) if `years` is less than 1; OpenSSL failures.
        public static func make(
            commonNamePrefix: String = "VoiceDebrief Mock Store",
            validFrom: Date,
            years: Int = 10,
            options: Options = Options()
        ) throws -> TestCertificateAuthority {
            let notAfter = try validUntil(validFrom, years: years)
            let rootKey = try P256PrivateKey.generate()
            var rootExtensions: [CertificateBuilder.Extension] = [
                .standard(nid: NID_basic_constraints, value: "critical,CA:TRUE"),
                .standard(nid: NID_key_usage, value: "critical,keyCertSign,cRLSign"),
            ]
            if options.keyIdentifiers {
                rootExtensions.append(.standard(nid: NID_subject_key_identifier, value: "hash"))
            }
            let root = try CertificateBuilder.issue(
                subject: [("O", commonNamePrefix), ("CN", "\(commonNamePrefix) Root CA")],
                subjectKey: rootKey.publicKey,
                issuer: .init(certificate: nil, key: rootKey),
                notBefore: validFrom,
                notAfter: notAfter,
                extensions: rootExtensions
            )
            return try issueBelow(
                root: root,
                rootKey: rootKey,
                commonNamePrefix: commonNamePrefix,
                validFrom: validFrom,
                notAfter: notAfter,
                options: options
            )
        }

        /// Makes a new intermediate and leaf, with fresh keys, under this CA's root.
        ///
        /// With the same `commonNamePrefix` the new certificates have the same names as this CA's but other keys: a
        /// leaf from one presented with the other's intermediate must fail verification.
        public func makingNewIntermediateAndLeaf(
            commonNamePrefix: String = "VoiceDebrief Mock Store",
            validFrom: Date,
            years: Int = 10,
            options: Options = Options()
        ) throws -> TestCertificateAuthority {
            try Self.issueBelow(
                root: root,
                rootKey: rootKey,
                commonNamePrefix: commonNamePrefix,
                validFrom: validFrom,
                notAfter: Self.validUntil(validFrom, years: years),
                options: options
            )
        }

        private static func issueBelow(
            root: Certificate,
            rootKey: P256PrivateKey,
            commonNamePrefix: String,
            validFrom: Date,
            notAfter: Date,
            options: Options
        ) throws -> TestCertificateAuthority {
            // Apple's marker extensions hold an ASN.1 NULL: extnValue is OCTET STRING { 05 00 }, i.e. 04 02 05 00.
            let null: [UInt8] = [0x05, 0x00]
            let keyIdentifiers: [CertificateBuilder.Extension] =
                options.keyIdentifiers
                ? [
                    .standard(nid: NID_subject_key_identifier, value: "hash"),
                    .standard(nid: NID_authority_key_identifier, value: "keyid:always"),
                ]
                : []

            let intermediateKey = try P256PrivateKey.generate()
            var intermediateExtensions: [CertificateBuilder.Extension] = [
                .standard(nid: NID_basic_constraints, value: "critical,CA:TRUE,pathlen:0"),
                .standard(nid: NID_key_usage, value: "critical,keyCertSign,cRLSign"),
            ]
            intermediateExtensions += keyIdentifiers
            if options.intermediateMarker {
                intermediateExtensions.append(.custom(oid: AppleOID.intermediateMarker, critical: false, value: null))
            }
            let intermediate = try CertificateBuilder.issue(
                subject: [("O", commonNamePrefix), ("CN", "\(commonNamePrefix) Intermediate CA")],
                subjectKey: intermediateKey.publicKey,
                issuer: .init(certificate: root, key: rootKey),
                notBefore: validFrom,
                notAfter: notAfter,
                extensions: intermediateExtensions
            )

            let leafKey = try P256PrivateKey.generate()
            var leafExtensions: [CertificateBuilder.Extension] = [
                .standard(nid: NID_basic_constraints, value: "critical,CA:FALSE"),
                .standard(nid: NID_key_usage, value: "critical,digitalSignature"),
            ]
            leafExtensions += keyIdentifiers
            if options.leafMarker {
                leafExtensions.append(.custom(oid: AppleOID.leafMarker, critical: false, value: null))
            }
            let leaf = try CertificateBuilder.issue(
                subject: [("O", commonNamePrefix), ("CN", "\(commonNamePrefix) Receipt Signing")],
                subjectKey: leafKey.publicKey,
                issuer: .init(certificate: intermediate, key: intermediateKey),
                notBefore: validFrom,
                notAfter: notAfter,
                extensions: leafExtensions
            )
            return TestCertificateAuthority(
                root: root,
                rootKey: rootKey,
                intermediate: intermediate,
                intermediateKey: intermediateKey,
                leaf: leaf,
                leafKey: leafKey
            )
        }

        private static func validUntil(_ start: Date, years: Int) throws -> Date {
            guard years >= 1 else {
                throw SigningError.invalidArgument(.validityTooShort(years: years))
            }
            // The same moment `years` later in UTC, 29 February becoming 28 February, as the Gregorian calendar adds
            // years. With the C library, not Foundation's Calendar: loading its time-zone data was a tenth of a new
            // store's start.
            let whole = start.timeIntervalSince1970.rounded(.down)
            var parts = tm()
            guard var seconds = time_t(exactly: whole), gmtime_r(&seconds, &parts) != nil,
                let added = Int32(exactly: years),
                case (let shifted, false) = parts.tm_year.addingReportingOverflow(added)
            else {
                throw SigningError.invalidArgument(.validityPastCalendar(years: years, start: start))
            }
            parts.tm_year = shifted
            if parts.tm_mon == 1 && parts.tm_mday == 29 && !isLeapYear(Int(shifted) + 1900) {
                parts.tm_mday = 28
            }
            let end = timegm(&parts)
            return Date(timeIntervalSince1970: TimeInterval(end) + (start.timeIntervalSince1970 - whole))
        }

        private static func isLeapYear(_ year: Int) -> Bool {
            year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        }
    }
#endif
