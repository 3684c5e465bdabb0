#if canImport(CryptoKit)
    import Foundation
    import Security

    /// Verifies a JWS `x5c` chain `[leaf, intermediate, root]` against one pinned root with the Security framework's
    /// `SecTrust`, on Apple platforms.
    ///
    /// Written from Apple's documentation and never compiled on Linux. It differs from the OpenSSL side
    /// (CertificateChainVerifier.swift) in what it can check: the path is Apple's basic X.509 policy
    /// (`SecPolicyCreateBasicX509`), not OpenSSL's strict mode, and ``requireAppleMarkers`` is kept for the same API
    /// but not checked, because iOS has no documented call that reads a certificate extension by its object
    /// identifier (this library does not parse certificates itself). The pinned root is the only anchor either way.
    public struct CertificateChainVerifier: Sendable {
        /// The only certificate trusted as an anchor.
        public let trustedRoot: Certificate
        /// Whether the Apple marker extensions are required on the intermediate and the leaf. Not checked on this
        /// side (see the type's documentation).
        public let requireAppleMarkers: Bool

        /// Creates a verifier trusting only `trustedRoot`.
        public init(trustedRoot: Certificate, requireAppleMarkers: Bool = true) {
            self.trustedRoot = trustedRoot
            self.requireAppleMarkers = requireAppleMarkers
        }

        /// Verifies `chain` (`[leaf, intermediate, root]` as in a JWS `x5c`) at `date`.
        ///
        /// Requires exactly 3 certificates. `SecTrust` gets the leaf and the intermediate; `chain[2]` is not trusted
        /// (as Apple's verifier ignores `x5c[2]`): the pinned root is the only anchor
        /// (`SecTrustSetAnchorCertificates`, `SecTrustSetAnchorCertificatesOnly`), the check is at `date`
        /// (`SecTrustSetVerifyDate`), nothing is fetched from the network, and `SecTrustEvaluateWithError` decides.
        /// It blocks while it evaluates: call it off the main thread, as Apple asks.
        /// - Throws: ``SigningError`` (`invalidChain`): `doesNotVerify` with the Security framework's reason and
        ///   error code, and depth -1 (`SecTrust` does not say which certificate failed).
        public func verify(_ chain: [Certificate], at date: Date) throws {
            guard chain.count == 3 else {
                throw SigningError.invalidChain(.certificateCount(chain.count))
            }
            let trust = try makeTrust(leaf: chain[0], intermediate: chain[1], at: date)
            var error: CFError?
            guard SecTrustEvaluateWithError(trust, &error) else {
                throw SigningError.invalidChain(
                    .doesNotVerify(
                        root: trustedRoot.name, date: date,
                        reason: error.flatMap { CFErrorCopyDescription($0) as String? } ?? "not trusted",
                        errorNumber: error.map { CFErrorGetCode($0) } ?? 0, depth: -1, failing: nil))
            }
        }

        /// A trust object for the leaf and the intermediate, anchored at the pinned root only, evaluated at `date`.
        private func makeTrust(leaf: Certificate, intermediate: Certificate, at date: Date) throws -> SecTrust {
            var made: SecTrust?
            let certificates = [leaf.certificate, intermediate.certificate] as CFArray
            let created = SecTrustCreateWithCertificates(certificates, SecPolicyCreateBasicX509(), &made)
            guard created == errSecSuccess, let trust = made else {
                throw SigningError.failedSecurityCall("SecTrustCreateWithCertificates", status: created)
            }
            try Self.require(
                SecTrustSetAnchorCertificates(trust, [trustedRoot.certificate] as CFArray),
                "SecTrustSetAnchorCertificates")
            try Self.require(SecTrustSetAnchorCertificatesOnly(trust, true), "SecTrustSetAnchorCertificatesOnly")
            try Self.require(SecTrustSetVerifyDate(trust, date as CFDate), "SecTrustSetVerifyDate")
            try Self.require(SecTrustSetNetworkFetchAllowed(trust, false), "SecTrustSetNetworkFetchAllowed")
            return trust
        }

        private static func require(_ status: OSStatus, _ call: String) throws {
            guard status == errSecSuccess else {
                throw SigningError.failedSecurityCall(call, status: status)
            }
        }
    }
#endif
