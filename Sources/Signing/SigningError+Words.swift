import Foundation

/// The words of every ``SigningError``, made here from what happened and nowhere else.
extension SigningError: CustomStringConvertible {
    /// What failed, in words a person can act on: no code, no source location, no OpenSSL reason.
    public var description: String {
        switch self {
        case .openSSLFailure(let call, _): "\(call) failed"
        case .invalidArgument(let problem, _): problem.words
        case .invalidKey(let problem, _): problem.words
        case .invalidCertificate(let problem, _): problem.words
        case .invalidSignature(let problem, _): problem.words
        case .invalidChain(let problem): problem.words
        case .insecureKeyFile(let path, let mode):
            "key file \(path) has mode \(Self.octal(mode)), so group or others can use it; refusing to read it. "
                + "Fix: chmod 600 \(path)"
        case .fileSystem(let error): "\(error)"
        case .malformedJWS(let problem): problem.words
        case .algorithmMismatch(let found, let required):
            "JWS alg is \"\(found)\" but \(required) is required"
                + (found == "none" ? "; unsecured JWS are never accepted" : "")
        case .chainCertificate(let index, let error): "x5c[\(index)] is not a DER certificate: \(error)"
        }
    }

    /// The same words as ``description``.
    public var message: String { description }

    /// The words, the code, then OpenSSL's reason if there is one: for diagnostics, never for a user.
    public var diagnosticDescription: String {
        "\(description) [\(code)]" + (openSSLReason.map { "; OpenSSL: \($0)" } ?? "")
    }

    private static func octal(_ mode: UInt32) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

extension SigningError.ArgumentProblem {
    var words: String {
        switch self {
        case .pemTooLarge(let bytes): "PEM text of \(bytes) bytes is too large"
        case .emptySigningSecret: "HS256 needs a non-empty secret"
        case .emptyVerificationSecret: "HS256 verification needs a non-empty secret"
        case .leafDoesNotHoldSigningKey(let leaf):
            "x5c[0] (\(leaf)) does not hold the public key of the ES256 signing key"
        case .validityTooShort(let years): "CA validity must be at least 1 year, got \(years)"
        case .validityPastCalendar(let years, let start): "\(years) years after \(start) is not a valid date"
        case .notAnObjectIdentifier(let oid): "\(oid) is not a dotted object identifier"
        }
    }
}

extension SigningError.KeyProblem {
    var words: String {
        switch self {
        case .notEC(let what): "\(what) is not an EC key (P-256 is required)"
        case .unreadableCurve(let what): "\(what): cannot read the EC group name"
        case .wrongCurve(let what, let curve): "\(what) is on curve \(curve), not P-256"
        case .explicitCurveParameters(let what, let encoding):
            "\(what) uses \(encoding) curve parameters; a named curve is required"
        case .pointNotOnCurve: "the P-256 public key's point is not on the curve"
        case .badPoint(let bytes): "an uncompressed P-256 point is 65 bytes starting 0x04, got \(bytes) bytes"
        case .noPEM(let kind): "no \(kind) PEM block could be read"
        case .der(let problem): problem.words(of: "P-256 public key (SubjectPublicKeyInfo)")
        case .unreadableCertificateKey(let certificate): "cannot read the public key of certificate \(certificate)"
        case .notTheCertificatesKey(let keyFile, let certificate):
            "key \(keyFile) does not belong to certificate \(certificate)"
        }
    }
}

extension SigningError.CertificateProblem {
    var words: String {
        switch self {
        case .noPEM: "no CERTIFICATE PEM block could be read"
        case .der(let problem): problem.words(of: "X.509 certificate")
        case .unreadableTime(let which): "certificate \(which) time cannot be read"
        case .commonNameNotText: "certificate subject common name is not valid text"
        case .rootCopiesDiffer(let derFile, let pemFile): "\(derFile) is not the same certificate as \(pemFile)"
        }
    }
}

extension SigningError.SignatureProblem {
    var words: String {
        switch self {
        case .der(let problem): problem.words(of: "ECDSA signature")
        case .notCanonicalDER: "ECDSA signature is not in canonical DER"
        case .missingScalars: "ECDSA_SIG_get0 returned no r or s"
        case .negativeScalar: "ECDSA signature has a negative r or s"
        case .scalarTooLong: "ECDSA signature r or s is longer than 32 bytes"
        case .rawLength(let bytes):
            "raw P-256 signature must be \(ECDSASignatureFormat.rawByteCount) bytes (r || s), got \(bytes)"
        case .es256Length(let bytes):
            "ES256 signature must be \(ECDSASignatureFormat.rawByteCount) bytes (r || s), got \(bytes)"
        case .hs256Mismatch: "HS256 signature does not match the secret"
        case .es256Mismatch: "ES256 signature does not verify with the key"
        }
    }
}

extension SigningError.DERProblem {
    /// The words for the DER of `what` (`X.509 certificate`).
    func words(of what: String) -> String {
        switch self {
        case .empty: "\(what): no bytes to decode"
        case .invalid: "\(what): not valid DER"
        case .trailingBytes(let count): "\(what): \(count) unexpected bytes after the DER value"
        }
    }
}

extension SigningError.ChainProblem {
    var words: String {
        switch self {
        case .certificateCount(let count):
            "certificate chain must have exactly 3 certificates [leaf, intermediate, root], got \(count)"
        case .x5cCount(let count): "x5c must have exactly 3 certificates [leaf, intermediate, root], got \(count)"
        case .missingIntermediateMarker(let certificate):
            "intermediate certificate \(certificate) lacks the Apple intermediate marker extension "
                + AppleOID.intermediateMarker
        case .missingLeafMarker(let certificate):
            "leaf certificate \(certificate) lacks the Apple leaf marker extension \(AppleOID.leafMarker)"
        case .doesNotVerify(let root, let date, let reason, _, let depth, let failing):
            "certificate chain does not verify against the pinned root \(root) at \(date.formatted(.iso8601)): "
                + "\(reason)" + Self.location(depth: depth, failing: failing)
        }
    }

    /// Where the chain failed: nothing when the verifier does not say (a negative depth: `SecTrust`).
    private static func location(depth: Int, failing: String?) -> String {
        guard depth >= 0 else { return "" }
        return ", at depth \(depth) (the \(position(depth))\(failing.map { " \"\($0)\"" } ?? ""))"
    }

    private static func position(_ depth: Int) -> String {
        switch depth {
        case 0: "leaf"
        case 1: "intermediate"
        case 2: "root"
        default: "certificate \(depth)"
        }
    }
}

extension SigningError.JWSProblem {
    var words: String {
        let malformed = "malformed compact JWS: "
        return switch self {
        case .empty: malformed + "the JWS is empty"
        case .tooLong(let bytes, let limit): malformed + "the JWS is \(bytes) bytes; the limit is \(limit)"
        case .partCount(let count):
            malformed + "a compact JWS has 3 parts separated by \".\", found \(count)"
                + (count == 5 ? " (5 parts is a JWE, which is not supported)" : "")
        case .emptyHeader: malformed + "the header (part 1 of 3) is empty"
        case .notBase64URL(let part): malformed + "\(part.words) is not unpadded base64url"
        case .headerWithoutAlg: malformed + "the header (part 1 of 3) is not a JSON object with a string \"alg\""
        case .headerNotObject: malformed + "the header (part 1 of 3) is not a JSON object"
        case .duplicateHeaderMember(let name):
            malformed + "the header (part 1 of 3) has the member \"\(name)\" more than once"
        case .criticalHeader:
            malformed + "the header (part 1 of 3) has \"crit\"; no critical extensions are supported"
        case .emptyAlg: malformed + "the header (part 1 of 3) has an empty \"alg\""
        case .noX5C: "ES256 JWS has no x5c certificate chain in its header"
        case .x5cNotBase64(let index): "x5c[\(index)] is not standard base64"
        }
    }
}

extension SigningError.JWSProblem.Part {
    var words: String {
        switch self {
        case .header: "the header (part 1 of 3)"
        case .payload: "the payload (part 2 of 3)"
        case .signature: "the signature (part 3 of 3)"
        }
    }
}
