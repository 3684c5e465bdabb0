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
