import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 35: a parent that dies while the store starts is not missed. `bash -c 'mockstore --exit-with-parent &'`
/// ends before the store can read who its parent was: the store then finds init (pid 1), or, told the parent's pid
/// (`--parent-pid`), finds another; either way it stops at once.
@Suite struct ExitWithParentStartTests {
    /// A shell starts the store in the background and ends at once. The store shares the shell's standard output (a
    /// pipe): the pipe closes when both have gone, so the test waits for that event, not for a time.
    @Test(arguments: [false, true])
    func aStoreWhoseShellEndsAtOnceIsGone(namingTheParent: Bool) async throws {
        let binary = try Binaries.require("mockstore")
        let scratch = try TemporaryDirectory()
        let (storeErrors, storePid) = (scratch.file("store.err"), scratch.file("store.pid"))
        let parent = namingTheParent ? #" --parent-pid "$$""# : ""
        let script =
            #""$0" --ephemeral --host 127.0.0.1 --port 0 --exit-with-parent"# + parent
            + #" 2>"$1" & echo "$!" >"$2""#
        let shell = try PipedShell(script, [binary, storeErrors, storePid], errors: scratch.file("shell.err"))
        let closed = await shell.outputClosed(within: 60)
        let said = (try? String(contentsOfFile: storeErrors, encoding: .utf8)) ?? ""
        let pid = pid_t(((try? String(contentsOfFile: storePid, encoding: .utf8)) ?? "").filter(\.isNumber))
        #expect(closed, "the store (pid \(pid.map(String.init) ?? "?")) outlived the shell that started it: \(said)")
        #expect(said.contains("gone"), "the store did not say its parent was gone: \(said)")
        if !closed, let pid { kill(pid, SIGKILL) }
    }

    /// `--parent-pid` of a process that is alive but not the store's parent (the test process's own parent): the
    /// store stops before it listens.
    @Test func aParentPidThatIsNotItsParentStopsTheStoreAtOnce() async throws {
        let binary = try Binaries.require("mockstore")
        let notItsParent = getppid()
        let result = try await ChildProcess.run(
            binary, ["--ephemeral", "--port", "0", "--exit-with-parent", "--parent-pid", String(notItsParent)],
            environment: ProcessInfo.processInfo.environment, timeout: 60)
        #expect(!result.timedOut, "the store ran on though pid \(notItsParent) is not its parent")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("listening on"), "\(result.stdout)")
        #expect(
            result.stderr.contains("not starting: the process that started it (pid \(notItsParent), --parent-pid)"),
            "\(result.stderr)")
    }

    /// The same store told its real parent's pid starts and serves.
    @Test func aParentPidThatIsItsParentLetsTheStoreStart() async throws {
        let binary = try Binaries.require("mockstore")
        let store = try ChildProcess(
            binary, ["--ephemeral", "--port", "0", "--exit-with-parent", "--parent-pid", String(getpid())],
            environment: ProcessInfo.processInfo.environment)
        try await eventually(timeout: 120, "the store listens") {
            store.stdoutSoFar.contains("listening on") || store.hasExited
        }
        #expect(store.stdoutSoFar.contains("listening on"), "\(store.stderrSoFar)")
        store.send(SIGTERM)
        await #expect(store.wait(timeout: 60).status == 0)
    }
}

/// `/bin/bash -c SCRIPT ARGUMENTS…` with its standard output a pipe this test reads: whatever the shell starts shares
/// it, so the pipe closes only when all of them have gone.
private final class PipedShell: Sendable {
    private let shell: pid_t
    private let readEnd: Int32

    init(_ script: String, _ arguments: [String], errors: String) throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SupportFailure("no pipe: \(errno)") }
        // Close-on-exec: no other test's child holds the pipe open (dup2 onto 1 clears it for the shell's copy).
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let clean = CleanSpawnAttributes()
        let argv = (["/bin/bash", "-c", script] + arguments).map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, "/bin/bash", &actions, &clean.attributes, argv, envp)
        close(ends[1])
        guard status == 0 else {
            close(ends[0])
            throw SupportFailure("cannot start /bin/bash: \(status)")
        }
        shell = pid
        readEnd = ends[0]
    }

    /// Whether the pipe closed (every process holding it gone) within `seconds`: read on a thread of its own, which
    /// waits on the pipe (`poll`), so no thread of the cooperative pool is held. The shell is reaped either way.
    func outputClosed(within seconds: Int32) async -> Bool {
        await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            let thread = Thread { [self] in
                let closed = readToEnd(until: Deadline(seconds: TimeInterval(seconds)))
                close(readEnd)
                var status: Int32 = 0
                while waitpid(shell, &status, 0) < 0 && errno == EINTR {}
                done.resume(returning: closed)
            }
            thread.stackSize = 128 * 1024
            thread.start()
        }
    }

    private func readToEnd(until deadline: Deadline) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !deadline.hasPassed {
            var ready = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(1, deadline.end.timeIntervalSinceNow * 1000))
            guard poll(&ready, 1, left) > 0 else { continue }
            let count = read(readEnd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return true }  // what the store printed is not needed: only the end
        }
        return false
    }
}
