/// A value Apple (or the mock store) sends as a string, read into an enum: one case for each value known when this
/// was written, and `unrecognized` for any other, holding the string as sent.
///
/// Apple's App Store Server Library keeps the raw string beside each enum (`environment` and `rawEnvironment`) so a
/// value Apple adds later is carried, not lost and not a decoding failure. These enums do the same in one value: any
/// string decodes, and encodes back unchanged. Make values with a case (a misspelt case does not compile) or with
/// ``init(rawValue:)``, which gives the known case for a known string: `unrecognized` never holds a known value.
public protocol WireStringEnum: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible
where RawValue == String {
    /// Every case but `unrecognized`.
    static var knownCases: [Self] { get }

    /// A value none of ``knownCases`` has, as sent.
    static func unrecognized(_ rawValue: String) -> Self

    /// The known case sent as `rawValue`, or `unrecognized(rawValue)`: never nil (given by default).
    init(rawValue: String)

    /// The value as it is sent.
    var rawValue: String { get }
}

extension WireStringEnum {
    /// The known case sent as `rawValue`, or `unrecognized(rawValue)`: never nil.
    public init(rawValue: String) {
        self = Self.knownCases.first { $0.rawValue == rawValue } ?? .unrecognized(rawValue)
    }

    /// Decodes any string, known or not.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the string as it was sent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Whether the value is one of ``knownCases``.
    public var isRecognized: Bool { Self.knownCases.contains(self) }

    /// The value as it is sent.
    public var description: String { rawValue }
}
