import Foundation

/// How the reliability suites run: a bounded number of seeded runs inside `swift test` (fast mode), hundreds with
/// `RELIABILITY_LONG=1` (`bash scripts/reliability.sh`), or one replayed run with `RELIABILITY_SEED`.
///
/// - `RELIABILITY_SEED=0x…`: run exactly that seed in every seeded suite (the seed a failure printed).
/// - `RELIABILITY_RUNS=N`: N runs per seeded suite, whatever the mode.
/// - `RELIABILITY_LONG=1`: the long mode's run counts.
/// - `RELIABILITY_BASE_SEED=0x…`: where a suite's runs start (printed with every failure; random otherwise).
/// - `RELIABILITY_FIGURES=FILE`: each suite appends its figures (a JSON line) to FILE.
enum Reliability {
    static let environment = ProcessInfo.processInfo.environment

    static let isLong = environment["RELIABILITY_LONG"] == "1"

    static func parseSeed(_ text: String?) -> UInt64? {
        guard let text, !text.isEmpty else { return nil }
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return UInt64(text.dropFirst(2), radix: 16) }
        return UInt64(text)
    }

    /// The seed to replay, if one was given.
    static let replaySeed = parseSeed(environment["RELIABILITY_SEED"])

    /// Where every suite's runs start.
    static let baseSeed: UInt64 = parseSeed(environment["RELIABILITY_BASE_SEED"]) ?? UInt64.random(in: 1...UInt64.max)

    /// How many runs a seeded suite makes: `fast` in `swift test`, `long` in the long mode, or `RELIABILITY_RUNS`
    /// divided by `weight` (for suites whose one seed is many runs), at least one.
    static func runs(fast: Int, long: Int, weight: Int = 1) -> Int {
        if let given = environment["RELIABILITY_RUNS"].flatMap(Int.init), given > 0 { return max(1, given / weight) }
        return isLong ? long : fast
    }

    /// The seeds of a suite's runs: the replayed one alone, or `runs(fast:long:weight:)` seeds derived from the base
    /// seed and the suite's name (so two suites never share a run).
    static func seeds(_ suite: String, fast: Int, long: Int, weight: Int = 1) -> [UInt64] {
        if let replaySeed { return [replaySeed] }
        var salt: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in suite.utf8 { salt = (salt ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return (0..<runs(fast: fast, long: long, weight: weight)).map {
            SeededRandom.seed(base: baseSeed ^ salt, index: $0)
        }
    }

    /// What to paste to replay `seed` of the test named `test`.
    static func replayHint(seed: UInt64, test: String) -> String {
        "seed \(seed.seedText) (base \(baseSeed.seedText)); replay: RELIABILITY_SEED=\(seed.seedText) "
            + "swift test --scratch-path .build-rel --skip-build --filter \"ReliabilityTests.*\(test)\""
    }
}
