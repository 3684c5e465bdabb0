// The OpenSSL side, for Linux. Where CryptoKit is (Apple platforms, no OpenSSL) CryptoKit/ holds this type.
#if !canImport(CryptoKit)
    import COpenSSL
    import Foundation

    /// Verifies a JWS `x5c` chain `[leaf, intermediate, root]` against one pinned root, as Apple's verifiers do.
    public struct CertificateChainVerifier: Sendable {
        /// The only certificate trusted as an anchor.
        public let trustedRoot: Certificate
        /// Whether the Apple marker extensions are required on the intermediate and the leaf.
        public let requireAppleMarkers: Bool

        /// Creates a verifier trusting only `trustedRoot`.
        public init(trustedRoot: Certificate, requireAppleMarkers: Bool = true) {
            self.trustedRoot = trustedRoot
            self.requireAppleMarkers = requireAppleMarkers
        }

        /// Verifies `chain` (`[leaf, intermediate, root]` as in a JWS `x5c`) at `date`.
        ///
        /// Requires exactly 3 certificates. Builds the path with `X509_verify_cert` from a store holding only the
        /// pinned root, with the intermediate as the only untrusted helper: `chain[2]` is not trusted (just as Apple's
        /// verifier ignores `x5c[2]`), so a chain ending in any other root fails. Checks are strict
        /// (`X509_V_FLAG_X509_STRICT`: key identifiers, critical basic constraints, named curves) at `date` rather than
        /// now, so a receipt stays verifiable at its signing date. With ``requireAppleMarkers`` the intermediate must
        /// carry ``AppleOID/intermediateMarker`` and the leaf ``AppleOID/leafMarker``.
        ///
        /// A certificate is valid from its `notBefore` second up to, but not including, its `notAfter` second
        /// (OpenSSL's rule; RFC 5280 would include that last second).
        /// - Throws: ``SigningError`` (`invalidChain`) saying which check failed and on which certificate.
        public func verify(_ chain: [Certificate], at date: Date) throws {
            guard chain.count == 3 else {
                throw SigningError.invalidChain(.certificateCount(chain.count))
            }
            try verifyPath(leaf: chain[0], intermediate: chain[1], at: date)
            if requireAppleMarkers {
                guard chain[1].hasExtension(oid: AppleOID.intermediateMarker) else {
                    throw SigningError.invalidChain(.missingIntermediateMarker(certificate: chain[1].name))
                }
                guard chain[0].hasExtension(oid: AppleOID.leafMarker) else {
                    throw SigningError.invalidChain(.missingLeafMarker(certificate: chain[0].name))
                }
            }
        }

        private func verifyPath(leaf: Certificate, intermediate: Certificate, at date: Date) throws {
            guard let store = X509_STORE_new() else {
                throw SigningError.failedCall("X509_STORE_new")
            }
            defer { X509_STORE_free(store) }
            // X509_STORE_add_cert takes its own reference; the Certificate keeps its own.
            guard X509_STORE_add_cert(store, trustedRoot.certificate) == 1 else {
                throw SigningError.failedCall("X509_STORE_add_cert(pinned root)")
            }
            guard let untrusted = COpenSSL_sk_X509_new_null() else {
                throw SigningError.failedCall("sk_X509_new_null")
            }
            // Frees the stack only: the intermediate stays owned by its Certificate, which outlives this call.
            defer { COpenSSL_sk_X509_free(untrusted) }
            guard COpenSSL_sk_X509_push(untrusted, intermediate.certificate) > 0 else {
                throw SigningError.failedCall("sk_X509_push(intermediate)")
            }
            guard let context = X509_STORE_CTX_new() else {
                throw SigningError.failedCall("X509_STORE_CTX_new")
            }
            defer { X509_STORE_CTX_free(context) }
            guard X509_STORE_CTX_init(context, store, leaf.certificate, untrusted) == 1 else {
                throw SigningError.failedCall("X509_STORE_CTX_init")
            }
            guard let parameters = X509_STORE_CTX_get0_param(context) else {
                throw SigningError.failedCall("X509_STORE_CTX_get0_param")
            }
            guard X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_X509_STRICT)) == 1 else {
                throw SigningError.failedCall("X509_VERIFY_PARAM_set_flags(X509_STRICT)")
            }
            // Sets X509_V_FLAG_USE_CHECK_TIME too; whole seconds, rounded down, as certificate times are.
            X509_VERIFY_PARAM_set_time(parameters, time_t(date.timeIntervalSince1970.rounded(.down)))

            guard X509_verify_cert(context) == 1 else {
                let error = X509_STORE_CTX_get_error(context)
                let depth = X509_STORE_CTX_get_error_depth(context)
                let reason = X509_verify_cert_error_string(Int(error)).map { String(cString: $0) } ?? "unknown"
                let failing = X509_STORE_CTX_get_current_cert(context).flatMap { try? Self.commonName(of: $0) } ?? nil
                OpenSSLErrorQueue.clear()
                throw SigningError.invalidChain(
                    .doesNotVerify(
                        root: trustedRoot.name, date: date, reason: reason, errorNumber: Int(error), depth: Int(depth),
                        failing: failing))
            }
        }

        private static func commonName(of certificate: OpaquePointer) throws -> String? {
            // X509_STORE_CTX_get_current_cert does not hand over ownership: take a reference for the wrapper to drop.
            guard X509_up_ref(certificate) == 1 else {
                return nil
            }
            return try Certificate(taking: certificate).subjectCommonName
        }
    }
#endif
