import OptionParsing
import Testing

/// The one mapping of errors to exit statuses every command uses.
@Suite struct ExitStatusTests {
    private struct Plain: Error {}
    private struct Judged: UsageMistake {
        var isUsageMistake: Bool
    }

    @Test func statusesAreTheSysexitsOnes() {
        #expect(ExitStatus.allCases.map(\.rawValue) == [0, 1, 64])
    }

    @Test func aUsageErrorOrAMistakeIs64AndAnythingElse1() {
        #expect(ExitStatus(for: UsageError("wrong", command: ["x"])) == .usage)
        #expect(ExitStatus(for: Judged(isUsageMistake: true)) == .usage)
        #expect(ExitStatus(for: Judged(isUsageMistake: false)) == .failure)
        #expect(ExitStatus(for: Plain()) == .failure)
    }
}
