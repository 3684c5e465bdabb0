/// A value Apple (or the mock store) sends as a string or a number, read into an enum: one case for each value known
/// when this was written, and `unrecognized` for any other, holding the value as sent.
///
/// Apple's App Store Server Library keeps the raw value beside each enum (`environment` and `rawEnvironment`) so a
/// value Apple adds later is carried, not lost and not a decoding failure. These enums do the same in one value: any
/// value of the raw type decodes, and encodes back unchanged. Make values with a case (a misspelt case does not
/// compile) or with ``init(rawValue:)``, which gives the known case for a known value: `unrecognized` never holds a
/// known one. Adopt it through ``WireStringEnum`` or ``WireIntEnum``.
public protocol WireEnum: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible
where RawValue: Codable & Hashable & Sendable {
    /// Every case but `unrecognized`.
    static var knownCases: [Self] { get }

    /// A value none of ``knownCases`` has, as sent.
    static func unrecognized(_ rawValue: RawValue) -> Self

    /// The known case sent as `rawValue`, or `unrecognized(rawValue)`: never nil (given by default).
    init(rawValue: RawValue)

    /// The value as it is sent.
    var rawValue: RawValue { get }
}

/// A ``WireEnum`` sent as a string.
public protocol WireStringEnum: WireEnum where RawValue == String {}

/// A ``WireEnum`` sent as an integer.
public protocol WireIntEnum: WireEnum where RawValue == Int {}

extension WireEnum {
    /// The known case sent as `rawValue`, or `unrecognized(rawValue)`: never nil.
    public init(rawValue: RawValue) {
        self = Self.knownCases.first { $0.rawValue == rawValue } ?? .unrecognized(rawValue)
    }

    /// Decodes any value of the raw type, known or not.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(RawValue.self))
    }

    /// Encodes the value as it was sent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Whether the value is one of ``knownCases``.
    public var isRecognized: Bool { Self.knownCases.contains(self) }

    /// The value as it is sent.
    public var description: String { String(describing: rawValue) }
}
