import Foundation
import Testing

/// `bash analytics/pnl.sh` as the tests run it: the package's own verifier, no colour, what it printed and its exit.
enum PnLScript {
    static func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> CommandResult
    {
        var environment = ProcessInfo.processInfo.environment
        environment["CREDIT_SUMMARY_VERIFY"] = try Binaries.require(
            "credit-summary-verify", sourceLocation: sourceLocation)
        environment["NO_COLOR"] = "1"
        // Its working files in a directory of the test's (no mktemp, no rm: the suite runs pnl.sh often); the tests
        // in PnLTests run it as it comes, making and removing its own.
        let scratch = try TemporaryDirectory()
        environment["PNL_SCRATCH"] = scratch.path
        let result = try await ChildProcess.run(
            "/bin/bash", [Repository.root + "/analytics/pnl.sh"] + arguments, environment: environment, timeout: 300)
        withExtendedLifetime(scratch) {}
        return CommandResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// `python3 analytics/pnl.py arguments` (the driver alone, as `spark-submit` runs it on a cluster).
    static func driver(_ arguments: [String]) async throws -> CommandResult {
        try await python([Repository.root + "/analytics/pnl.py"] + arguments)
    }

    /// `python3 arguments` (one of analytics' Python files run alone).
    static func python(_ arguments: [String]) async throws -> CommandResult {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        let result = try await ChildProcess.run(
            "/usr/bin/env", ["python3"] + arguments, environment: environment, timeout: 300)
        return CommandResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// A directory holding copies of `files`, each under its own name.
    static func directory(of files: [String]) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        for file in files {
            try FileManager.default.copyItem(
                atPath: file, toPath: directory.file(URL(fileURLWithPath: file).lastPathComponent))
        }
        return directory
    }
}
