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
    /// A certificate is valid from its `notBefore` second up to, but not including, its `notAfter` second (OpenSSL's
    /// rule; RFC 5280 would include that last second).
    /// - Throws: ``SigningError`` (`invalidChain`) saying which check failed and on which certificate.
    public func verify(_ chain: [Certificate], at date: Date) throws {
        guard chain.count == 3 else {
            throw SigningError(
                code: .invalidChain,
                message: "certificate chain must have exactly 3 certificates [leaf, intermediate, root], "
                    + "got \(chain.count)"
            )
        }
        try verifyPath(leaf: chain[0], intermediate: chain[1], at: date)
        if requireAppleMarkers {
            guard chain[1].hasExtension(oid: AppleOID.intermediateMarker) else {
                throw SigningError(
                    code: .invalidChain,
                    message: "intermediate certificate \(chain[1].name) lacks the Apple intermediate marker "
                        + "extension \(AppleOID.intermediateMarker)"
                )
            }
            guard chain[0].hasExtension(oid: AppleOID.leafMarker) else {
                throw SigningError(
                    code: .invalidChain,
                    message: "leaf certificate \(chain[0].name) lacks the Apple leaf marker extension "
                        + "\(AppleOID.leafMarker)"
                )
            }
        }
    }

    private func verifyPath(leaf: Certificate, intermediate: Certificate, at date: Date) throws {
        guard let store = X509_STORE_new() else {
            throw SigningError.openSSL("X509_STORE_new failed")
        }
        defer { X509_STORE_free(store) }
        // X509_STORE_add_cert takes its own reference; the Certificate keeps its own.
        guard X509_STORE_add_cert(store, trustedRoot.certificate) == 1 else {
            throw SigningError.openSSL("X509_STORE_add_cert(pinned root) failed")
        }
        guard let untrusted = COpenSSL_sk_X509_new_null() else {
            throw SigningError.openSSL("sk_X509_new_null failed")
        }
        // Frees the stack only: the intermediate stays owned by its Certificate, which outlives this call.
        defer { COpenSSL_sk_X509_free(untrusted) }
        guard COpenSSL_sk_X509_push(untrusted, intermediate.certificate) > 0 else {
            throw SigningError.openSSL("sk_X509_push(intermediate) failed")
        }
        guard let context = X509_STORE_CTX_new() else {
            throw SigningError.openSSL("X509_STORE_CTX_new failed")
        }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, leaf.certificate, untrusted) == 1 else {
            throw SigningError.openSSL("X509_STORE_CTX_init failed")
        }
        guard let parameters = X509_STORE_CTX_get0_param(context) else {
            throw SigningError.openSSL("X509_STORE_CTX_get0_param failed")
        }
        guard X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_X509_STRICT)) == 1 else {
            throw SigningError.openSSL("X509_VERIFY_PARAM_set_flags(X509_STRICT) failed")
        }
        // Sets X509_V_FLAG_USE_CHECK_TIME too; whole seconds, rounded down, as certificate times are.
        X509_VERIFY_PARAM_set_time(parameters, time_t(date.timeIntervalSince1970.rounded(.down)))

        guard X509_verify_cert(context) == 1 else {
            let error = X509_STORE_CTX_get_error(context)
            let depth = X509_STORE_CTX_get_error_depth(context)
            let reason = X509_verify_cert_error_string(Int(error)).map { String(cString: $0) } ?? "unknown"
            let failing = X509_STORE_CTX_get_current_cert(context).flatMap { try? Self.commonName(of: $0) } ?? nil
            OpenSSLErrorQueue.clear()
            throw SigningError(
                code: .invalidChain,
                message: "certificate chain does not verify against the pinned root \(trustedRoot.name) at "
                    + "\(Self.format(date)): \(reason), at depth \(depth) "
                    + "(the \(Self.position(depth))\(failing.map { " \"\($0)\"" } ?? ""))",
                openSSLReason: "X509_V_ERR \(error)"
            )
        }
    }

    private static func position(_ depth: Int32) -> String {
        switch depth {
        case 0: return "leaf"
        case 1: return "intermediate"
        case 2: return "root"
        default: return "certificate \(depth)"
        }
    }

    private static func commonName(of certificate: OpaquePointer) throws -> String? {
        // X509_STORE_CTX_get_current_cert does not hand over ownership: take a reference for the wrapper to drop.
        guard X509_up_ref(certificate) == 1 else {
            return nil
        }
        return try Certificate(taking: certificate).subjectCommonName
    }

    private static func format(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
