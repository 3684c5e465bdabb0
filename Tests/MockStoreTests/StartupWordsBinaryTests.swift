import Foundation
import StoreWire
import TestSupport
import Testing

/// Issue 27: what `mockstore` says at start and in `--help` is true: the environment's retry rule, counts in words,
/// and every endpoint it serves.
@Suite struct StartupWordsBinaryTests {
    /// What the store printed on standard error once it is listening, started with `arguments`.
    private func startupLines(_ arguments: [String]) throws -> String {
        let child = try ChildProcess(
            try Binaries.require("mockstore"), ["--ephemeral", "--port", "0", "--exit-with-parent"] + arguments,
            environment: ProcessInfo.processInfo.environment)
        defer { child.send(SIGTERM) }
        let started = waitUntil(timeout: 120) { child.stdoutSoFar.contains("mockstore listening on") }
        #expect(started, "the store started")
        return (try? String(contentsOfFile: child.stderrPath, encoding: .utf8)) ?? ""
    }

    @Test func theStartLineStatesTheEnvironmentsRetryRuleAndCountsInWords() throws {
        let sandbox = try startupLines(["--notify", "http://127.0.0.1:9/hook"])
        #expect(sandbox.contains("the sandbox tries each once, no retries"), "\(sandbox)")
        #expect(sandbox.contains("1 product,"), "\(sandbox)")
        #expect(!sandbox.contains("1 products"), "\(sandbox)")
        let production = try startupLines(["--notify", "http://127.0.0.1:9/hook", "--environment", "production"])
        #expect(production.contains("retries after 1, 12, 24, 48, 72"), "\(production)")
    }

    @Test func helpListsEveryEndpointTheStoreServes() async throws {
        let help = try await ChildProcess.run(
            try Binaries.require("mockstore"), ["--help"], environment: ProcessInfo.processInfo.environment,
            timeout: 60)
        for path in EndpointTests.everyEndpoint.map(\.template) {
            #expect(help.stdout.contains(path), "\(path) is not in --help")
        }
    }
}
