/// A noun that agrees with its count: `1 minute`, `167 minutes`, `1 new entry`, `3 new entries`.
public struct CountNoun: Sendable, Equatable {
    /// The word for one: `minute`.
    public var one: String
    /// The word for any other count, zero included: `minutes`.
    public var many: String

    public init(_ one: String, _ many: String) {
        self.one = one
        self.many = many
    }

    /// `count` with the noun that agrees with it, the count's thousands separated: `1 file`, `1,200 minutes`.
    public func callAsFunction(_ count: Int64) -> String {
        "\(ChargeLimits.words(count)) \(count == 1 ? one : many)"
    }

    /// `count` with the noun that agrees with it.
    public func callAsFunction(_ count: Int) -> String { self(Int64(count)) }
}
