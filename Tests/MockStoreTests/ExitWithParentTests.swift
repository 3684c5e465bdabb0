import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 27: no orphans. `mockstore --exit-with-parent` stops when the process that started it dies, even by
/// SIGKILL (a test runner killed mid-run), so no store is left listening.
@Suite struct ExitWithParentTests {
    /// A shell that starts the store in the background, says its pid, and waits; the shell is then SIGKILLed.
    private func storeUnderAShell(_ flags: [String], output: String) throws -> (shell: ChildProcess, store: pid_t) {
        let binary = try Binaries.require("mockstore")
        let script = #"out="$1"; shift; "$0" --ephemeral --port 0 "$@" >"$out" 2>&1 & echo "$!"; wait"#
        let shell = try ChildProcess(
            "/bin/sh", ["-c", script, binary, output] + flags, environment: ProcessInfo.processInfo.environment)
        var pid: pid_t?
        waitUntil(timeout: 60) {
            // The whole line: a number read half written would be another process's.
            let said = shell.stdoutSoFar
            guard said.hasSuffix("\n") else { return false }
            pid = pid_t(said.trimmingCharacters(in: .whitespacesAndNewlines))
            return pid != nil
        }
        return (shell, try #require(pid, "the shell did not say the store's pid"))
    }

    @Test func aStoreWhoseParentIsKilledStopsOnItsOwn() async throws {
        let scratch = try TemporaryDirectory()
        let output = scratch.file("store.out")
        let (shell, store) = try storeUnderAShell(["--exit-with-parent"], output: output)
        // Listening: it has read who its parent is (a parent gone before the store even starts is not seen).
        let listening = waitUntil(timeout: 60) {
            ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").contains("mockstore listening on")
        }
        #expect(listening, "the store started")
        shell.send(SIGKILL)
        _ = await shell.wait(timeout: 30)
        let stopped = waitUntil(timeout: 120) { !ChildProcess.isLive(store) }
        let status = (try? String(contentsOfFile: "/proc/\(store)/status", encoding: .utf8)) ?? "gone"
        #expect(stopped, "pid \(store) still running after its parent died: \(status.prefix(300))")
        if ChildProcess.isLive(store) { kill(store, SIGKILL) }
    }

    /// Linux signals the store when the thread that started it ends (PR_SET_PDEATHSIG), though its process lives on:
    /// the store checks and keeps serving. A test library starting stores from a pool thread that then goes idle
    /// and ends must not lose them.
    @Test func aStoreOutlivesTheThreadThatStartedItWhileItsProcessLives() async throws {
        let binary = try Binaries.require("mockstore")
        let starter = StarterThread(binary)
        starter.start()
        #expect(waitUntil(timeout: 180) { starter.tid != nil }, "the starting thread did not finish")
        let store = try #require(starter.store, "the store did not start")
        let tid = try #require(starter.tid)
        #expect(store.stdoutSoFar.contains("mockstore listening on"), "\(store.stderrSoFar)")
        // Gone from this process's threads: the kernel has reparented the store and sent its signal by then.
        #expect(waitUntil(timeout: 120) { !FileManager.default.fileExists(atPath: "/proc/self/task/\(tid)") })
        let stoppedEarly = waitUntil(timeout: 1) { !ChildProcess.isLive(store.pid) }
        #expect(!stoppedEarly, "the store stopped though its parent process lives: \(store.stderrSoFar)")
        #expect(!store.stderrSoFar.contains("is gone"), "\(store.stderrSoFar)")
        store.send(SIGTERM)
        await #expect(store.wait(timeout: 60).status == 0)
    }
}

/// A thread that starts a store, waits until it listens (so the store has asked to be told of its parent), says its
/// own thread id and ends.
private final class StarterThread: @unchecked Sendable {
    private let binary: String
    private let lock = NSLock()
    private var started: ChildProcess?
    private var threadID: pid_t?

    init(_ binary: String) { self.binary = binary }

    /// The store it started, once it has ended.
    var store: ChildProcess? { lock.withLock { started } }
    /// Its thread id, once it has ended.
    var tid: pid_t? { lock.withLock { threadID } }

    /// Starts the thread.
    func start() { Thread { self.run() }.start() }

    private func run() {
        let child = try? ChildProcess(
            binary, ["--ephemeral", "--port", "0", "--exit-with-parent"],
            environment: ProcessInfo.processInfo.environment)
        if let child { waitUntil(timeout: 120) { child.stdoutSoFar.contains("mockstore listening on") } }
        // This thread's id: /proc/thread-self is a link to "PID/task/TID".
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
        lock.withLock { (started, threadID) = (child, pid_t(link.split(separator: "/").last ?? "") ?? -1) }
    }
}
