/// An amount of credit in micro-credits: one millionth of a pound, always a whole number. A penny is 10,000.
///
/// Arithmetic is checked: an operation that would overflow throws ``LedgerError/overflow(_:)``; it never wraps.
public struct MicroCredits: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The raw count of micro-credits.
    public let rawValue: Int64

    /// One penny.
    public static let penny = MicroCredits(10_000)
    /// One pound.
    public static let pound = MicroCredits(1_000_000)
    /// Nothing.
    public static let zero = MicroCredits(0)

    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    /// `pence` whole pence, checked.
    public static func pence(_ pence: Int64) throws -> MicroCredits {
        try penny.multiplied(by: pence)
    }

    public static func < (lhs: MicroCredits, rhs: MicroCredits) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `self + other`, or an overflow error.
    public func adding(_ other: MicroCredits) throws -> MicroCredits {
        let (value, overflow) = rawValue.addingReportingOverflow(other.rawValue)
        guard !overflow else { throw LedgerError.overflow("\(rawValue) + \(other.rawValue)") }
        return MicroCredits(value)
    }

    /// `self - other`, or an overflow error.
    public func subtracting(_ other: MicroCredits) throws -> MicroCredits {
        let (value, overflow) = rawValue.subtractingReportingOverflow(other.rawValue)
        guard !overflow else { throw LedgerError.overflow("\(rawValue) - \(other.rawValue)") }
        return MicroCredits(value)
    }

    /// `self × factor`, or an overflow error.
    public func multiplied(by factor: Int64) throws -> MicroCredits {
        let (value, overflow) = rawValue.multipliedReportingOverflow(by: factor)
        guard !overflow else { throw LedgerError.overflow("\(rawValue) × \(factor)") }
        return MicroCredits(value)
    }

    /// The amount with its sign flipped, or an overflow error (for `Int64.min`).
    public func negated() throws -> MicroCredits {
        try MicroCredits.zero.subtracting(self)
    }

    /// The sum of `amounts`, checked.
    public static func sum(_ amounts: some Sequence<MicroCredits>) throws -> MicroCredits {
        try amounts.reduce(MicroCredits.zero) { try $0.adding($1) }
    }

    /// Whether this is a whole number of pence.
    public var isWholePence: Bool { rawValue % 10_000 == 0 }

    /// The amount in pounds, e.g. `£4.94`, `-£0.42`; amounts below a penny are shown exactly (`£0.0005`),
    /// never rounded away.
    public var formatted: String {
        let negative = rawValue < 0
        // Work in UInt64 so Int64.min has a magnitude.
        let magnitude = rawValue.magnitude
        let pounds = magnitude / 1_000_000
        let micros = magnitude % 1_000_000
        var fraction = String(micros)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        // Keep at least pence; drop trailing zeros below the penny.
        while fraction.count > 2 && fraction.hasSuffix("0") { fraction.removeLast() }
        return (negative ? "-" : "") + "£" + MicroCredits.grouped(pounds) + "." + fraction
    }

    /// `pounds` with a comma between each three digits (£359,995.00), as amounts are written.
    private static func grouped(_ pounds: UInt64) -> String {
        let digits = Array(String(pounds))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }

    public var description: String { formatted }
}
