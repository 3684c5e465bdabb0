import DurableFiles
import Foundation

/// An error from the `Signing` library: what failed, as a closed set of cases, each carrying what happened.
///
/// React to the case (or to its ``code``, the kind alone). The words a person reads are made from the case in one
/// place, ``description`` (SigningError+Words.swift), and never parsed back; they hold no code and no OpenSSL
/// reason. ``diagnosticDescription`` adds both, for logs and tests.
public enum SigningError: Error, Equatable, Sendable {
    /// An OpenSSL call failed where failure was not expected (allocation, provider, encoding): `call` names it.
    case openSSLFailure(call: String, openSSLReason: String?)
    /// A caller-supplied argument is out of range.
    case invalidArgument(ArgumentProblem, openSSLReason: String? = nil)
    /// Key bytes or PEM could not be read, or the key is not a named-curve P-256 key.
    case invalidKey(KeyProblem, openSSLReason: String? = nil)
    /// Certificate bytes or PEM could not be read.
    case invalidCertificate(CertificateProblem, openSSLReason: String? = nil)
    /// A signature or MAC is malformed or does not verify.
    case invalidSignature(SignatureProblem, openSSLReason: String? = nil)
    /// A certificate chain does not verify against the pinned root.
    case invalidChain(ChainProblem)
    /// A key file at `path` can be used by group or others (its permission bits are `mode`).
    case insecureKeyFile(path: String, mode: UInt32)
    /// A file system call failed: which call, on which path, and the system's error.
    case fileSystem(FileError)
    /// A compact JWS is not well formed.
    case malformedJWS(JWSProblem)
    /// A JWS uses the algorithm `found` where `required` was asked for ("none" is never accepted).
    case algorithmMismatch(found: String, required: String)
    /// Certificate `index` of a JWS's `x5c` chain is not a certificate, for the reason `error` says.
    indirect case chainCertificate(index: Int, SigningError)

    /// The kind of failure, without what happened.
    public enum Code: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        case openSSLFailure, invalidArgument, invalidKey, invalidCertificate, invalidSignature, invalidChain
        case insecureKeyFile, fileSystem, malformedJWS, algorithmMismatch

        /// The code's name, e.g. "invalidChain".
        public var description: String { rawValue }
    }

    /// A caller-supplied argument out of range.
    public enum ArgumentProblem: Equatable, Sendable {
        /// PEM text of this many bytes, more than OpenSSL's memory buffer takes.
        case pemTooLarge(bytes: Int)
        /// HS256 signing with an empty secret.
        case emptySigningSecret
        /// HS256 verification with an empty secret.
        case emptyVerificationSecret
        /// The `x5c` leaf (this certificate) does not hold the signing key's public key.
        case leafDoesNotHoldSigningKey(leaf: String)
        /// A test CA valid for fewer than one year.
        case validityTooShort(years: Int)
        /// A test CA valid `years` after `start`: a date past the calendar.
        case validityPastCalendar(years: Int, start: Date)
        /// An object identifier that is not dotted numbers.
        case notAnObjectIdentifier(String)
    }

    /// Why a key cannot be used.
    public enum KeyProblem: Equatable, Sendable {
        /// The key (`what` it is) is not an EC key.
        case notEC(what: String)
        /// The key's EC group name cannot be read.
        case unreadableCurve(what: String)
        /// The key is on `curve`, not P-256.
        case wrongCurve(what: String, curve: String)
        /// The key gives its curve by explicit parameters (`encoding`), not by name.
        case explicitCurveParameters(what: String, encoding: String)
        /// The public key's point is not on the curve.
        case pointNotOnCurve
        /// An uncompressed point of this many bytes, or not starting 0x04.
        case badPoint(bytes: Int)
        /// No PEM block of this kind (`PUBLIC KEY`, `PRIVATE KEY`) could be read.
        case noPEM(kind: String)
        /// The public key's DER is not one.
        case der(DERProblem)
        /// The key of this certificate cannot be read.
        case unreadableCertificateKey(certificate: String)
        /// The key in `keyFile` does not belong to `certificate`.
        case notTheCertificatesKey(keyFile: String, certificate: String)
    }

    /// Why certificate bytes are not a certificate.
    public enum CertificateProblem: Equatable, Sendable {
        /// No CERTIFICATE PEM block could be read.
        case noPEM
        /// The DER is not one certificate.
        case der(DERProblem)
        /// Its `notBefore` or `notAfter` time (`which`) cannot be read.
        case unreadableTime(which: String)
        /// Its subject's common name is not text.
        case commonNameNotText
        /// The root's DER file and its PEM file are not the same certificate.
        case rootCopiesDiffer(derFile: String, pemFile: String)
    }

    /// Why a signature is not one or does not verify.
    public enum SignatureProblem: Equatable, Sendable {
        /// The ECDSA signature's DER is not one.
        case der(DERProblem)
        /// The ECDSA signature is DER, but not its one canonical encoding.
        case notCanonicalDER
        /// The ECDSA signature has no r or s.
        case missingScalars
        /// The ECDSA signature has a negative r or s.
        case negativeScalar
        /// The ECDSA signature's r or s is longer than 32 bytes.
        case scalarTooLong
        /// A raw P-256 signature of this many bytes, not 64.
        case rawLength(bytes: Int)
        /// An ES256 JWS signature of this many bytes, not 64.
        case es256Length(bytes: Int)
        /// The HS256 MAC is not the secret's.
        case hs256Mismatch
        /// The ES256 signature does not verify with the key.
        case es256Mismatch
    }

    /// What is wrong with DER bytes.
    public enum DERProblem: Equatable, Sendable {
        /// There are no bytes.
        case empty
        /// The bytes are not the DER value.
        case invalid
        /// A valid value followed by this many more bytes.
        case trailingBytes(Int)
    }

    /// Why a certificate chain does not verify.
    public enum ChainProblem: Equatable, Sendable {
        /// A chain of this many certificates, not 3.
        case certificateCount(Int)
        /// An `x5c` of this many certificates, not 3.
        case x5cCount(Int)
        /// The intermediate (named) lacks Apple's intermediate marker extension.
        case missingIntermediateMarker(certificate: String)
        /// The leaf (named) lacks Apple's leaf marker extension.
        case missingLeafMarker(certificate: String)
        /// OpenSSL's verification failed: its `reason` (X509_V_ERR `errorNumber`) at `depth`, on the certificate
        /// named `failing` when it has a name, against the pinned `root` (named) at `date`. On Apple platforms
        /// `SecTrust`'s reason and `CFError` code, and depth -1: it does not say which certificate failed.
        case doesNotVerify(root: String, date: Date, reason: String, errorNumber: Int, depth: Int, failing: String?)
    }

    /// What is wrong with a compact JWS.
    public enum JWSProblem: Equatable, Sendable {
        case empty
        /// Longer than `limit` bytes.
        case tooLong(bytes: Int, limit: Int)
        /// Not 3 parts (5 is a JWE).
        case partCount(Int)
        case emptyHeader
        /// A part that is not unpadded base64url.
        case notBase64URL(Part)
        /// The header is not a JSON object with a string `alg`.
        case headerWithoutAlg
        /// The header is not a JSON object.
        case headerNotObject
        /// The header has this member more than once.
        case duplicateHeaderMember(String)
        /// The header has `crit`.
        case criticalHeader
        case emptyAlg
        /// An ES256 JWS without its `x5c` chain.
        case noX5C
        /// `x5c[index]` is not standard base64.
        case x5cNotBase64(index: Int)

        /// A part of a compact JWS.
        public enum Part: Equatable, Sendable {
            case header, payload, signature
        }
    }
}

extension SigningError {
    /// The kind of failure.
    public var code: Code {
        switch self {
        case .openSSLFailure: .openSSLFailure
        case .invalidArgument: .invalidArgument
        case .invalidKey: .invalidKey
        case .invalidCertificate: .invalidCertificate
        case .invalidSignature: .invalidSignature
        case .invalidChain: .invalidChain
        case .insecureKeyFile: .insecureKeyFile
        case .fileSystem: .fileSystem
        case .malformedJWS: .malformedJWS
        case .algorithmMismatch: .algorithmMismatch
        case .chainCertificate(_, let error): error.code
        }
    }

    /// OpenSSL's reason text (from `ERR_get_error` and `ERR_error_string_n`) when an OpenSSL call failed.
    public var openSSLReason: String? {
        switch self {
        case .openSSLFailure(_, let reason), .invalidArgument(_, let reason), .invalidKey(_, let reason),
            .invalidCertificate(_, let reason), .invalidSignature(_, let reason):
            reason
        case .invalidChain(.doesNotVerify(_, _, _, let number, _, _)): "X509_V_ERR \(number)"
        case .chainCertificate(_, let error): error.openSSLReason
        case .invalidChain, .insecureKeyFile, .fileSystem, .malformedJWS, .algorithmMismatch: nil
        }
    }
}
