import TestSupport
import Testing

@Suite struct SeededRandomTests {
    @Test func theSameSeedGivesTheSameSequenceAndSplitMix64sKnownValues() {
        var first = SeededRandom(seed: 0)
        var second = SeededRandom(seed: 0)
        let sequence = (0..<3).map { _ in first.next() }
        #expect(sequence == (0..<3).map { _ in second.next() })
        // SplitMix64 from seed 0, as in the reference implementation: a run replays on every machine.
        #expect(sequence == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
        var other = SeededRandom(seed: 1)
        #expect(other.next() != sequence[0])
    }

    @Test func runSeedsAreStableAndDistinct() {
        let seeds = (0..<100).map { SeededRandom.seed(base: 0x1234, index: $0) }
        #expect(Set(seeds).count == 100)
        #expect(seeds == (0..<100).map { SeededRandom.seed(base: 0x1234, index: $0) })
        #expect(SeededRandom.seed(base: 0x1235, index: 0) != seeds[0])
    }

    @Test func seedsArePrintedAndParsedBack() {
        #expect(UInt64(0xAB).seedText == "0x00000000000000ab")
        #expect(UInt64.max.seedText == "0xffffffffffffffff")
        for seed: UInt64 in [0, 1, 0xDEAD_BEEF, .max] {
            #expect(SeededRandom.parseSeed(seed.seedText) == seed)
        }
        #expect(SeededRandom.parseSeed("0XFF") == 255)
        #expect(SeededRandom.parseSeed("42") == 42)
        #expect(SeededRandom.parseSeed("") == nil)
        #expect(SeededRandom.parseSeed(nil) == nil)
        #expect(SeededRandom.parseSeed("0xnope") == nil)
    }

    @Test func pickAndChanceFollowTheSeed() {
        var generator = SeededRandom(seed: 7)
        var again = SeededRandom(seed: 7)
        let items = Array(0..<50)
        #expect((0..<20).map { _ in generator.pick(items) } == (0..<20).map { _ in again.pick(items) })
        #expect(!(0..<100).contains { _ in generator.chance(0) })
        #expect((0..<100).allSatisfy { _ in generator.chance(1) })
    }
}

@Suite struct SeedScheduleTests {
    @Test func aReplaySeedIsTheOnlySeedOfEverySuite() {
        let schedule = SeedSchedule(prefix: "X", environment: ["X_SEED": "0x00000000000000ff", "X_RUNS": "50"])
        #expect(schedule.seeds("A", fast: 5, long: 500) == [255])
        #expect(schedule.seeds("B", fast: 5, long: 500) == [255])
    }

    @Test func theBaseSeedAndSuiteNameFixTheSeeds() {
        let environment = ["X_BASE_SEED": "0x0000000000001234"]
        let schedule = SeedSchedule(prefix: "X", environment: environment)
        #expect(schedule.baseSeed == 0x1234)
        let seeds = schedule.seeds("Suite", fast: 5, long: 500)
        #expect(seeds.count == 5)
        #expect(seeds == SeedSchedule(prefix: "X", environment: environment).seeds("Suite", fast: 5, long: 500))
        #expect(Set(seeds).isDisjoint(with: schedule.seeds("Other", fast: 5, long: 500)), "two suites share a run")
        #expect(schedule.replayAssignment(seed: 255).contains("X_SEED=0x00000000000000ff"))
        #expect(schedule.replayAssignment(seed: 255).contains("base 0x0000000000001234"))
    }

    @Test func runCountsFollowTheMode() {
        #expect(SeedSchedule(prefix: "X", environment: [:]).runs(fast: 5, long: 500) == 5)
        #expect(SeedSchedule(prefix: "X", environment: ["X_LONG": "1"]).runs(fast: 5, long: 500) == 500)
        let given = SeedSchedule(prefix: "X", environment: ["X_RUNS": "40", "X_LONG": "1"])
        #expect(given.runs(fast: 5, long: 500) == 40)
        #expect(given.runs(fast: 5, long: 500, weight: 8) == 5)
        #expect(given.runs(fast: 5, long: 500, weight: 100) == 1)
        #expect(SeedSchedule(prefix: "X", environment: ["X_RUNS": "0"]).runs(fast: 5, long: 500) == 5)
        #expect(SeedSchedule(prefix: "Y", environment: ["X_LONG": "1"]).runs(fast: 5, long: 500) == 5)
    }
}
