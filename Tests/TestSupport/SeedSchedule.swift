/// The seeds of a family of seeded suites, taken from environment variables named `<PREFIX>_…` (the reliability
/// suites use `RELIABILITY`):
///
/// - `<PREFIX>_SEED=0x…`: run exactly that seed in every seeded suite (the seed a failure printed).
/// - `<PREFIX>_RUNS=N`: N runs per seeded suite, whatever the mode.
/// - `<PREFIX>_LONG=1`: the long mode's run counts.
/// - `<PREFIX>_BASE_SEED=0x…`: where a suite's runs start (printed with every failure; random otherwise).
public struct SeedSchedule: Sendable {
    public let prefix: String
    public let isLong: Bool
    /// The seed to replay, if one was given.
    public let replaySeed: UInt64?
    /// Where every suite's runs start.
    public let baseSeed: UInt64
    /// `<PREFIX>_RUNS`, when given and positive.
    public let givenRuns: Int?

    public init(prefix: String, environment: [String: String]) {
        self.prefix = prefix
        isLong = environment[prefix + "_LONG"] == "1"
        replaySeed = SeededRandom.parseSeed(environment[prefix + "_SEED"])
        baseSeed = SeededRandom.parseSeed(environment[prefix + "_BASE_SEED"]) ?? UInt64.random(in: 1...UInt64.max)
        givenRuns = environment[prefix + "_RUNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
    }

    /// How many runs a seeded suite makes: `fast` by default, `long` in the long mode, or `<PREFIX>_RUNS` divided by
    /// `weight` (for suites whose one seed is many runs), at least one.
    public func runs(fast: Int, long: Int, weight: Int = 1) -> Int {
        if let givenRuns { return max(1, givenRuns / weight) }
        return isLong ? long : fast
    }

    /// The seeds of a suite's runs: the replayed one alone, or `runs(fast:long:weight:)` seeds derived from the base
    /// seed and the suite's name (so two suites never share a run).
    public func seeds(_ suite: String, fast: Int, long: Int, weight: Int = 1) -> [UInt64] {
        if let replaySeed { return [replaySeed] }
        var salt: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a of the suite's name
        for byte in suite.utf8 { salt = (salt ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return (0..<runs(fast: fast, long: long, weight: weight)).map {
            SeededRandom.seed(base: baseSeed ^ salt, index: $0)
        }
    }

    /// What to paste to replay `seed`: the variable and the seed, with the base seed for the record.
    public func replayAssignment(seed: UInt64) -> String {
        "seed \(seed.seedText) (base \(baseSeed.seedText)); replay: \(prefix)_SEED=\(seed.seedText)"
    }
}
