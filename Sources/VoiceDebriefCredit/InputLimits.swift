/// How long a subject and a text may be, in UTF-8 bytes, and the check a command makes before it writes anything:
/// one 10 kB subject would otherwise widen every row of `credit entries`. A command line maps the error to exit 64.
public enum InputLimits {
    /// `--subject`: at most 256 bytes.
    public static let subjectBytes = 256
    /// `--text` (a decline's words): at most 1,000 bytes.
    public static let textBytes = 1_000

    /// What is too long: the option, how many bytes it had and how many it may have.
    public struct TooLong: Error, Equatable, Sendable, CustomStringConvertible {
        public var option: String
        public var bytes: Int
        public var limit: Int

        public init(option: String, bytes: Int, limit: Int) {
            self.option = option
            self.bytes = bytes
            self.limit = limit
        }

        /// A command-line mistake (exit 64).
        public var isUsageError: Bool { true }

        public var description: String {
            "\(option) is \(bytes) bytes long; it may be at most \(limit) bytes (UTF-8); nothing was written"
        }
    }

    /// Throws ``TooLong`` unless `subject` (when given) fits ``subjectBytes``.
    public static func validate(subject: String?) throws {
        try validate(subject, option: "--subject", limit: subjectBytes)
    }

    /// Throws ``TooLong`` unless `text` (when given) fits ``textBytes``.
    public static func validate(text: String?) throws {
        try validate(text, option: "--text", limit: textBytes)
    }

    /// Throws ``TooLong`` unless `value` (when given) fits `limit` bytes, naming `option`.
    public static func validate(_ value: String?, option: String, limit: Int) throws {
        guard let value else { return }
        let bytes = value.utf8.count
        guard bytes <= limit else { throw TooLong(option: option, bytes: bytes, limit: limit) }
    }
}
