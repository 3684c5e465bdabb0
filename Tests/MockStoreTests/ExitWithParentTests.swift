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

    private func isRunning(_ pid: pid_t) -> Bool {
        // A zombie is gone as far as listening goes: only a live process counts.
        guard kill(pid, 0) == 0 else { return false }
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        return !status.contains("State:\tZ")
    }

    @Test func aStoreWhoseParentIsKilledStopsOnItsOwn() throws {
        let scratch = try TemporaryDirectory()
        let output = scratch.file("store.out")
        let (shell, store) = try storeUnderAShell(["--exit-with-parent"], output: output)
        // Listening: it has read who its parent is (a parent gone before the store even starts is not seen).
        let listening = waitUntil(timeout: 60) {
            ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").contains("mockstore listening on")
        }
        #expect(listening, "the store started")
        shell.send(SIGKILL)
        _ = shell.wait(timeout: 30)
        let stopped = waitUntil(timeout: 120) { !isRunning(store) }
        let status = (try? String(contentsOfFile: "/proc/\(store)/status", encoding: .utf8)) ?? "gone"
        #expect(stopped, "pid \(store) still running after its parent died: \(status.prefix(300))")
        if isRunning(store) { kill(store, SIGKILL) }
    }
}
