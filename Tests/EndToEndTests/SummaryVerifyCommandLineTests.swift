import Foundation
import TestSupport
import Testing

/// `credit-summary-verify` reads its command line through the package's one parser: `--help`, and a mistake is 64.
@Suite struct SummaryVerifyCommandLineTests {
    private func run(_ arguments: [String]) throws -> ProcessResult {
        try ChildProcess.run(
            try Binaries.require("credit-summary-verify"), arguments,
            environment: ProcessInfo.processInfo.environment, timeout: 60)
    }

    @Test(arguments: [[], ["a", "b"], ["--nope", "x"], ["-x"]])
    func aMistakeIsExit64SayingHowToUseIt(_ arguments: [String]) throws {
        let result = try run(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("credit-summary-verify --help"), "\(result)")
    }

    @Test func helpSaysWhatItPrints() throws {
        let result = try run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("DIR") && result.stdout.contains("left out"), "\(result)")
    }

    @Test func aDirectoryThatIsNotThereIsExit1() throws {
        let scratch = try TemporaryDirectory()
        let result = try run([scratch.path + "/missing"])
        #expect(result.status == 1 && result.stderr.contains("cannot read"), "\(result)")
    }
}
