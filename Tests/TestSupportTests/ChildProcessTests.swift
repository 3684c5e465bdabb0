import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct ChildProcessTests {
    let environment = ["PATH": "/usr/bin:/bin"]

    /// The child's own peak, not the test runner's: a runner holding 300 MiB does not make `sleep` look large.
    @Test func peakMemoryIsTheChildsOwnNotTheRunnersItWasSpawnedFrom() async throws {
        let held = 300 << 20
        let ballast = UnsafeMutableRawPointer.allocate(byteCount: held, alignment: 4096)
        defer { ballast.deallocate() }
        memset(ballast, 1, held)  // resident, in the runner
        let result = try await ChildProcess.run("/bin/sleep", ["0.3"], environment: environment, timeout: 30)
        let peak = try #require(result.peakResidentBytes)
        #expect(peak < 100 << 20, "sleep reported at \(peak >> 20) MiB")
        #expect(peak > 0)
        #expect(ballast.load(as: UInt8.self) == 1)
    }

    @Test func capturesOutputExitStatusAndInput() async throws {
        let result = try await ChildProcess.run(
            "/bin/sh", ["-c", "cat; echo out; echo err >&2; exit 3"], environment: environment, input: "in\n",
            timeout: 30)
        #expect(result.stdout == "in\nout\n")
        #expect(result.stderr == "err\n")
        #expect(result.status == 3 && !result.signaled && !result.timedOut && !result.succeeded)
    }

    @Test func passesExactlyTheEnvironmentGiven() async throws {
        let result = try await ChildProcess.run(
            "/bin/sh", ["-c", "echo \"$ONLY-${HOME:-none}\""], environment: ["ONLY": "this"], timeout: 30)
        #expect(result.stdout == "this-none\n")
        #expect(result.succeeded)
    }

    @Test func aProcessPastItsTimeoutIsKilledAndSaysSo() async throws {
        // Killed, not ended: a 30 s sleep that ran out would have exited 0 (the wait itself may resume late on a
        // busy pool, so its length proves nothing).
        let result = try await ChildProcess.run("/bin/sleep", ["30"], environment: environment, timeout: 0.3)
        #expect(result.timedOut)
        #expect(result.killedBySIGKILL)
    }

    @Test func aSignalIsReportedAsOne() async throws {
        let child = try ChildProcess("/bin/sleep", ["30"], environment: environment)
        #expect(!child.hasExited)
        child.send(SIGTERM)
        let result = await child.wait(timeout: 30)
        #expect(result.signaled && result.status == SIGTERM && !result.timedOut)
    }

    @Test func aMissingExecutableIsAnError() {
        #expect(throws: SupportFailure.self) {
            try ChildProcess("/nonexistent/binary", [], environment: environment)
        }
    }
}

@Suite struct WaitingTests {
    @Test func waitUntilGivesUpAtItsDeadline() {
        let started = Date()
        #expect(!waitUntil(timeout: 0.2) { false })
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 0.2 && waited < 5)
    }

    @Test func waitUntilReturnsOnceTheConditionHolds() {
        var calls = 0
        #expect(
            waitUntil(timeout: 30) {
                calls += 1
                return calls == 3
            })
        #expect(calls == 3)
    }
}

@Suite struct TemporaryDirectoryTests {
    @Test func isMadePrivateAndRemovedWithItsFilesWhenReleased() throws {
        var directory: TemporaryDirectory? = try TemporaryDirectory()
        let path = try #require(directory?.path)
        #expect(path.contains("/TestSupportTests-"), "named after the calling target")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attributes[.posixPermissions] as? Int == 0o700)
        let file = try #require(try directory?.write("text", to: "a.txt", mode: 0o600))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "text")
        directory = nil
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func takesAPrefix() throws {
        #expect(try TemporaryDirectory(prefix: "named").path.contains("/named-"))
        #expect(try TemporaryDirectory("other", inMemory: true).path.contains("/other-"))
    }
}

@Suite struct LaunchedMockStoreTests {
    @Test func theListeningLineIsReadOnlyWhenWhole() {
        #expect(LaunchedMockStore.listeningAddress(in: "mockstore listening on http://127.0.0.1:4") == nil)
        let whole = LaunchedMockStore.listeningAddress(in: "mockstore listening on http://127.0.0.1:4321\n")
        #expect(whole?.url == "http://127.0.0.1:4321")
        #expect(whole?.port == 4321)
        #expect(LaunchedMockStore.listeningAddress(in: "starting\n") == nil)
    }
}
