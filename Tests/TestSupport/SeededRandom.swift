/// A small, fast, seedable generator (SplitMix64): the same seed gives the same sequence on every machine, so a
/// failing run replays from its seed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A seed for run `index` of a suite whose runs start from `base`.
    public static func seed(base: UInt64, index: Int) -> UInt64 {
        var generator = SeededRandom(seed: base ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
        return generator.next()
    }

    /// True with `probability` (0 never, 1 always).
    public mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    /// One of `items` (not empty).
    public mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }

    /// A seed as printed (`0x` and hex digits) or in decimal; nil for nil, empty or not a number.
    public static func parseSeed(_ text: String?) -> UInt64? {
        guard let text, !text.isEmpty else { return nil }
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return UInt64(text.dropFirst(2), radix: 16) }
        return UInt64(text)
    }
}

extension UInt64 {
    /// `0x` and 16 hex digits, as printed in failure messages and accepted by the seed variables.
    public var seedText: String {
        let digits = String(self, radix: 16)
        return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
    }
}
