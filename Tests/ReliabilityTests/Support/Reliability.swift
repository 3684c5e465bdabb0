import Foundation
import TestSupport

/// How the reliability suites run: a bounded number of seeded runs inside `swift test` (fast mode), hundreds with
/// `RELIABILITY_LONG=1` (`bash scripts/reliability.sh`), or one replayed run with `RELIABILITY_SEED`.
///
/// - `RELIABILITY_SEED=0x…`: run exactly that seed in every seeded suite (the seed a failure printed).
/// - `RELIABILITY_RUNS=N`: N runs per seeded suite, whatever the mode.
/// - `RELIABILITY_LONG=1`: the long mode's run counts.
/// - `RELIABILITY_BASE_SEED=0x…`: where a suite's runs start (printed with every failure; random otherwise).
/// - `RELIABILITY_FIGURES=FILE`: each suite appends its figures (a JSON line) to FILE.
/// - `RELIABILITY_BIN_DIR=DIR`: the `credit` and `mockstore` binaries from DIR (see `Binaries`).
enum Reliability {
    static let environment = ProcessInfo.processInfo.environment

    /// The seeds, from the `RELIABILITY_…` variables (the shared ``SeedSchedule``).
    static let schedule = SeedSchedule(prefix: "RELIABILITY", environment: environment)

    static var isLong: Bool { schedule.isLong }

    /// The seed to replay, if one was given.
    static var replaySeed: UInt64? { schedule.replaySeed }

    /// Where every suite's runs start.
    static var baseSeed: UInt64 { schedule.baseSeed }

    /// How many runs a seeded suite makes: `fast` in `swift test`, `long` in the long mode, or `RELIABILITY_RUNS`
    /// divided by `weight` (for suites whose one seed is many runs), at least one.
    static func runs(fast: Int, long: Int, weight: Int = 1) -> Int {
        schedule.runs(fast: fast, long: long, weight: weight)
    }

    /// The seeds of a suite's runs: the replayed one alone, or `runs(fast:long:weight:)` seeds derived from the base
    /// seed and the suite's name (so two suites never share a run).
    static func seeds(_ suite: String, fast: Int, long: Int, weight: Int = 1) -> [UInt64] {
        schedule.seeds(suite, fast: fast, long: long, weight: weight)
    }

    /// What to paste to replay `seed` of the test named `test`.
    static func replayHint(seed: UInt64, test: String) -> String {
        schedule.replayAssignment(seed: seed)
            // With the stage of real kills on: the crash runs are skipped in a plain `swift test` (KillStage).
            + " CREDIT_KILL_STAGE=1 swift test --scratch-path .build-rel --skip-build --filter \"ReliabilityTests.*\(test)\""
    }
}
