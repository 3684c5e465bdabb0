import Foundation
import MockStoreTesting
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 27: a test runner killed with SIGKILL leaves no store behind. This test bundle is started again as the
/// runner: it starts a store through the test library, as the project's suites do, says the store's pid and holds it
/// until it is killed; then the store must go, checked by its pid.
@Suite struct KilledRunnerTests {
    static let probe = "MOCKSTORE_KILLED_RUNNER_PROBE"

    /// The runner's part: only when started by ``aRunnerKilledWithSIGKILLLeavesNoStore()`` (it never ends itself).
    @Test(.enabled(if: ProcessInfo.processInfo.environment[probe] != nil, "only as the runner that is killed"))
    func holdAStoreUntilKilled() async throws {
        let said = try #require(ProcessInfo.processInfo.environment[Self.probe])
        var options = TestStore.Options()
        options.binary = try Binaries.require("mockstore")
        options.catalogue = Repository.catalogue
        let store = try await TestStore.start(options)
        try "\(store.processIdentifier)\n".write(toFile: said, atomically: true, encoding: .utf8)
        // Until killed: a stream that never yields, kept open.
        let (forever, open) = AsyncStream<Never>.makeStream()
        defer { open.finish() }
        for await _ in forever {}
    }

    @Test func aRunnerKilledWithSIGKILLLeavesNoStore() async throws {
        let scratch = try TemporaryDirectory()
        let said = scratch.file("store.pid")
        var environment = ProcessInfo.processInfo.environment
        environment[Self.probe] = said
        // This very test bundle, run for the runner's part alone.
        let bundle = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let runner = try ChildProcess(
            bundle, ["--testing-library", "swift-testing", "--filter", "holdAStoreUntilKilled"],
            environment: environment)
        var store: pid_t?
        let started = waitUntil(timeout: 180) {
            let text = (try? String(contentsOfFile: said, encoding: .utf8)) ?? ""
            store = text.hasSuffix("\n") ? pid_t(text.dropLast()) : nil
            return store != nil || runner.hasExited
        }
        let pid = try #require(
            store, "the runner did not start a store: \(started) \(runner.stderrSoFar.suffix(2_000))")
        #expect(ChildProcess.isLive(pid), "the store was running while its runner was")
        runner.send(SIGKILL)
        await #expect(runner.wait(timeout: 60).signaled)
        let gone = waitUntil(timeout: 120) { !ChildProcess.isLive(pid) }
        #expect(gone, "store pid \(pid) still running after its runner was killed")
        if !gone { kill(pid, SIGKILL) }
    }

}
