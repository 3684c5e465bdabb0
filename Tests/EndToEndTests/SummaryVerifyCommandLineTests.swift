import Foundation
import TestSupport
import Testing

/// `credit-summary-verify` reads its command line through the package's one parser: `--help`, and a mistake is 64.
@Suite struct SummaryVerifyCommandLineTests {
    private func run(_ arguments: [String]) async throws -> ProcessResult {
        try await ChildProcess.run(
            try Binaries.require("credit-summary-verify"), arguments,
            environment: ProcessInfo.processInfo.environment, timeout: 60)
    }

    @Test(arguments: [[], ["a", "b"], ["--nope", "x"], ["-x"]])
    func aMistakeIsExit64SayingHowToUseIt(_ arguments: [String]) async throws {
        let result = try await run(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("credit-summary-verify --help"), "\(result)")
    }

    /// Issue 35: no directory was "credit-summary-verify: credit-summary-verify needs DIR": said once, plainly.
    @Test func noDirectoryIsSaidOncePlainly() async throws {
        let result = try await run([])
        #expect(result.status == 64, "\(result)")
        let first = try #require(result.stderr.split(separator: "\n").first.map(String.init))
        #expect(first.components(separatedBy: "credit-summary-verify").count == 2, "the name once: \(first)")
        #expect(first.hasPrefix("credit-summary-verify: which directory of summaries?"), "\(first)")
        #expect(!result.stderr.contains("credit-summary-verify: credit-summary-verify"), "\(result)")
    }

    @Test func helpSaysWhatItPrints() async throws {
        let result = try await run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("DIR") && result.stdout.contains("left out"), "\(result)")
    }

    @Test func aDirectoryThatIsNotThereIsExit1() async throws {
        let scratch = try TemporaryDirectory()
        let result = try await run([scratch.path + "/missing"])
        #expect(result.status == 1 && result.stderr.contains("cannot read"), "\(result)")
    }
}
