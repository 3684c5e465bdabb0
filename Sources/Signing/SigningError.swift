/// An error from the `Signing` library.
///
/// The error says what failed (``message``), which kind of failure it is (``code``), where it was raised
/// (``location``) and, when an OpenSSL call failed, OpenSSL's own reason text (``openSSLReason``).
///
/// Compare errors by ``code`` when reacting to them; the message is for people. Its ``description`` is the message
/// alone, in plain words, since it is what reaches a user; ``diagnosticDescription`` adds the code, the source
/// location and OpenSSL's reason, for logs and tests.
public struct SigningError: Error, CustomStringConvertible, Equatable {
    /// The kind of failure. A struct with static members rather than an enum, so new kinds are not source-breaking.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// The code's name, e.g. "invalidChain".
        public var description: String { name }

        /// An OpenSSL call failed where failure was not expected (allocation, provider, encoding).
        public static let openSSLFailure = Code("openSSLFailure")
        /// A caller-supplied argument is out of range (for example an empty HMAC secret where one is required).
        public static let invalidArgument = Code("invalidArgument")
        /// Key bytes or PEM could not be parsed, or the key is not a named-curve P-256 key.
        public static let invalidKey = Code("invalidKey")
        /// Certificate bytes or PEM could not be parsed.
        public static let invalidCertificate = Code("invalidCertificate")
        /// A signature or MAC is malformed or does not verify.
        public static let invalidSignature = Code("invalidSignature")
        /// A certificate chain does not verify against the pinned root.
        public static let invalidChain = Code("invalidChain")
        /// A key file can be read by group or others.
        public static let insecureKeyFile = Code("insecureKeyFile")
        /// A file system call failed.
        public static let fileSystem = Code("fileSystem")
        /// A compact JWS string is not well formed.
        public static let malformedJWS = Code("malformedJWS")
        /// A JWS uses an algorithm the caller did not ask for (including "none", which is never accepted).
        public static let algorithmMismatch = Code("algorithmMismatch")
    }

    /// The kind of failure.
    public let code: Code
    /// What failed, in words a person can act on.
    public let message: String
    /// OpenSSL's reason text (from `ERR_get_error` and `ERR_error_string_n`) when an OpenSSL call failed.
    public let openSSLReason: String?
    /// Where the error was raised, as `file:line` in the `Signing` module.
    public let location: String

    /// Creates an error. Library code uses the static factories instead.
    public init(
        code: Code,
        message: String,
        openSSLReason: String? = nil,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.openSSLReason = openSSLReason
        self.location = "\(fileID):\(line)"
    }

    /// The message, in plain words: no code, no source location, no OpenSSL reason.
    public var description: String { message }

    /// The message, code and location, then OpenSSL's reason if there is one: for diagnostics, never for a user.
    public var diagnosticDescription: String {
        var text = "\(message) [\(code)] at \(location)"
        if let openSSLReason {
            text += "; OpenSSL: \(openSSLReason)"
        }
        return text
    }

    /// Two errors are equal when they report the same failure: the source location is diagnostic only and ignored.
    public static func == (lhs: SigningError, rhs: SigningError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.openSSLReason == rhs.openSSLReason
    }
}

extension SigningError {
    /// An OpenSSL call failed unexpectedly (`openSSLFailure`); see ``openSSL(_:_:fileID:line:)``.
    static func openSSL(_ message: String, fileID: String = #fileID, line: Int = #line) -> SigningError {
        openSSL(.openSSLFailure, message, fileID: fileID, line: line)
    }

    /// An OpenSSL call failed: drains this thread's OpenSSL error queue into the error, so the reasons are reported
    /// here and do not leak into a later, unrelated failure.
    static func openSSL(_ code: Code, _ message: String, fileID: String = #fileID, line: Int = #line) -> SigningError {
        SigningError(
            code: code,
            message: message,
            openSSLReason: OpenSSLErrorQueue.drain(),
            fileID: fileID,
            line: line
        )
    }
}
