/// A value Apple sends as an integer, read into an enum: one case for each value known when this was written, and
/// `unrecognized` for any other, holding the number as sent.
///
/// The integer twin of ``WireStringEnum``: any integer decodes, and encodes back unchanged.
public protocol WireIntEnum: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible
where RawValue == Int {
    /// Every case but `unrecognized`.
    static var knownCases: [Self] { get }

    /// A value none of ``knownCases`` has, as sent.
    static func unrecognized(_ rawValue: Int) -> Self

    /// The known case sent as `rawValue`, or `unrecognized(rawValue)`: never nil (given by default).
    init(rawValue: Int)

    /// The value as it is sent.
    var rawValue: Int { get }
}

extension WireIntEnum {
    /// The known case sent as `rawValue`, or `unrecognized(rawValue)`: never nil.
    public init(rawValue: Int) {
        self = Self.knownCases.first { $0.rawValue == rawValue } ?? .unrecognized(rawValue)
    }

    /// Decodes any integer, known or not.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(Int.self))
    }

    /// Encodes the number as it was sent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Whether the value is one of ``knownCases``.
    public var isRecognized: Bool { Self.knownCases.contains(self) }

    /// The number as it is sent.
    public var description: String { String(rawValue) }
}
