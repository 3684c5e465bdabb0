import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A started child process (`posix_spawn`), its standard input from a file and its output going to files, so no pipe
/// can fill and stall it and it can be read while it runs. Killed (SIGKILL) and reaped if released while running.
public final class ChildProcess {
    public let pid: pid_t
    /// Where its standard output goes (readable while it runs).
    public let stdoutPath: String
    /// Where its standard error goes (readable while it runs).
    public let stderrPath: String
    private let scratch: TemporaryDirectory
    /// How it ended, once collected by ``hasExited`` or ``wait(timeout:)``.
    public private(set) var result: ProcessResult?
    /// The most resident memory it has held, as read from `/proc` while it ran (Linux): by ``hasExited`` and by
    /// the sampler of an async wait.
    private let highWater: HighWaterBox

    /// Starts `executable` (a path, not looked up in PATH) with `arguments` and exactly `environment`, `input` on its
    /// standard input.
    public init(_ executable: String, _ arguments: [String], environment: [String: String], input: String? = nil)
        throws
    {
        scratch = try TemporaryDirectory("child")
        stdoutPath = scratch.file("stdout")
        stderrPath = scratch.file("stderr")
        let inPath = scratch.file("stdin")
        guard FileManager.default.createFile(atPath: inPath, contents: Data((input ?? "").utf8)) else {
            throw SupportFailure("cannot write the child's standard input to \(inPath)")
        }
        pid = try Self.spawn(executable, arguments, environment: environment, files: [inPath, stdoutPath, stderrPath])
        highWater = HighWaterBox(pid: pid)
    }

    /// Runs `executable` to completion (or `timeout` seconds, then SIGKILL) and returns what it did.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], input: String? = nil,
        timeout: TimeInterval
    ) async throws -> ProcessResult {
        try await ChildProcess(executable, arguments, environment: environment, input: input).wait(timeout: timeout)
    }

    /// Whether it has exited (collecting its status if so).
    public var hasExited: Bool {
        if result != nil { return true }
        noteHighWater()
        var status: Int32 = 0
        var usage = rusage()
        if wait4(pid, &status, WNOHANG, &usage) == pid {
            collect(status, usage, timedOut: false)
            return true
        }
        return false
    }

    /// Waits up to `timeout` seconds, holding no thread of the cooperative pool (a thread of its own blocks until
    /// the child exits); then kills it with SIGKILL and says it timed out.
    @discardableResult
    public func wait(timeout: TimeInterval) async -> ProcessResult {
        if let result { return result }
        let pid = pid
        let timedOut = Atomic(false)
        let ended = Exit()
        let sampler = highWaterSampler()
        // Killed only if it is still running then: a wait resumed late (a busy pool) is not a hang.
        let killer = DispatchWorkItem {
            guard !ended.hasHappened else { return }
            timedOut.store(true, ordering: .sequentiallyConsistent)
            sendSignal(pid, SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        await Self.exited(pid, ended)
        killer.cancel()
        sampler.cancel()
        var status: Int32 = 0
        var usage = rusage()
        wait4(pid, &status, 0, &usage)
        collect(status, usage, timedOut: timedOut.load(ordering: .sequentiallyConsistent))
        result?.exitedAt = ended.at
        return result!
    }

    /// Returns once process `pid` has exited (not reaped: `waitid` with `WNOWAIT`), on a thread of its own.
    private static func exited(_ pid: pid_t, _ ended: Exit) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                var info = siginfo_t()
                while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
                ended.happened()
                done.resume()
            }
            thread.stackSize = 64 * 1024
            thread.start()
        }
    }

    /// Reads the child's memory high-water mark every 10 ms while it runs, on the dispatch pool.
    private func highWaterSampler() -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let sample = highWater
        timer.setEventHandler { sample.note() }
        timer.schedule(deadline: .now() + .milliseconds(2), repeating: .milliseconds(10))
        timer.resume()
        return timer
    }

    /// Sends `signal` (SIGKILL unless said) if it is still running.
    public func send(_ signal: Int32 = SIGKILL) {
        if result == nil { sendSignal(pid, signal) }
    }

    /// Whether process `pid` (any, not only a child) is alive: a zombie is gone as far as listening goes.
    public static func isLive(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        return !status.contains("State:\tZ")
    }

    /// What it has written to standard output so far.
    public var stdoutSoFar: String { Self.text(of: stdoutPath) }

    /// What it has written to standard error so far.
    public var stderrSoFar: String { Self.text(of: stderrPath) }

    deinit {
        if result == nil {
            sendSignal(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    private func collect(_ status: Int32, _ usage: rusage, timedOut: Bool) {
        // The wait(2) status: low 7 bits the signal (0 for a normal exit, 0x7F for stopped), next byte the code.
        let signaled = (status & 0x7F) != 0 && (status & 0x7F) != 0x7F
        let code = signaled ? status & 0x7F : (status >> 8) & 0xFF
        result = ProcessResult(
            status: code, signaled: signaled, stdout: stdoutSoFar, stderr: stderrSoFar, timedOut: timedOut)
        // ru_maxrss is in KiB on Linux, in bytes on Darwin. On Linux it is not the child's own: posix_spawn starts
        // the child in the parent's memory (vfork), and exec folds that memory's high-water mark into the child's
        // ru_maxrss, so a test runner of 200 MiB reports every child at 200 MiB or more. The child's own high-water
        // mark (VmHWM, polled while it runs) is used instead when there is one.
        #if canImport(Glibc)
            result?.peakResidentBytes = highWater.bytes ?? Int(usage.ru_maxrss) * 1024
        #else
            result?.peakResidentBytes = Int(usage.ru_maxrss)
        #endif
    }

    /// Reads the child's resident high-water mark, which only grows while it runs; a child that has exited has
    /// none, and the last one read stands.
    private func noteHighWater() {
        highWater.note()
    }

    /// Process `pid`'s resident high-water mark (`VmHWM` in `/proc/PID/status`, KiB), in bytes (Linux).
    static func highWaterMark(of pid: pid_t) -> Int? {
        #if canImport(Glibc)
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kib = Int(line.dropFirst(6).filter(\.isNumber))
            else { return nil }
            return kib * 1024
        #else
            return nil
        #endif
    }

    private static func text(of path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }

    /// `posix_spawn` with descriptors 0, 1, 2 opened on `files` (read, write, write), and every signal unblocked and
    /// at its default: the spawning thread may be one of Dispatch's, which block signals, and a mask is inherited.
    private static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String], files: [String]
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, files[0], O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, files[1], O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, files[2], O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = RealPython.skippingShims(environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        let clean = CleanSpawnAttributes()
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &clean.attributes, argv, envp)
        guard status == 0 else {
            throw SupportFailure("cannot start \(executable): \(String(cString: strerror(status)))")
        }
        return child
    }
}

/// `kill(2)`, under a name no method shadows.
public func sendSignal(_ pid: pid_t, _ signal: Int32) {
    _ = kill(pid, signal)
}

/// The highest memory a sampler has read of a running child.
private final class HighWaterBox: Sendable {
    let pid: pid_t
    private let highest = Atomic(0)

    init(pid: pid_t) { self.pid = pid }

    func note() {
        if let bytes = ChildProcess.highWaterMark(of: pid) {
            highest.max(bytes, ordering: .relaxed)
        }
    }

    var bytes: Int? {
        let value = highest.load(ordering: .relaxed)
        return value > 0 ? value : nil
    }
}

/// Whether a child has exited, as its waiting thread saw.
private final class Exit: Sendable {
    private let moment = Mutex<Date?>(nil)

    func happened() { moment.withLock { $0 = Date() } }

    var hasHappened: Bool { at != nil }

    /// When the waiting thread saw it exit.
    var at: Date? { moment.withLock { $0 } }
}

/// The folder of the `python3` on PATH, put first on a child's PATH: pyenv's shims start dozens of shell processes
/// for every `python3` (a suite-wide count showed about 40 a call), the same interpreter either way.
public enum RealPython {
    static let folder: String? = pyenvFolder() ?? askedFolder()

    /// The folder pyenv's shims would choose, read from pyenv's own files without running it (`PYENV_VERSION`, a
    /// `.python-version` in this folder or above, else `$PYENV_ROOT/version`); nil when PATH has no shims or the
    /// version is not a folder of its own.
    private static func pyenvFolder() -> String? {
        let environment = ProcessInfo.processInfo.environment
        guard let shims = environment["PATH"]?.split(separator: ":").first(where: { $0.hasSuffix("/shims") }) else {
            return nil
        }
        let root = environment["PYENV_ROOT"] ?? String(shims.dropLast("/shims".count))
        func firstWord(_ path: String) -> String? {
            (try? String(contentsOfFile: path, encoding: .utf8))?.split(whereSeparator: \.isWhitespace).first.map(
                String.init)
        }
        var version = environment["PYENV_VERSION"]?.split(separator: ":").first.map(String.init)
        var directory = FileManager.default.currentDirectoryPath
        while version == nil && !directory.isEmpty {
            version = firstWord(directory + "/.python-version")
            directory = directory == "/" ? "" : (directory as NSString).deletingLastPathComponent
        }
        guard let chosen = version ?? firstWord(root + "/version"), chosen != "system" else { return nil }
        let folder = root + "/versions/" + chosen + "/bin"
        return FileManager.default.isExecutableFile(atPath: folder + "/python3") ? folder : nil
    }

    /// The folder `python3` itself names, asked once (through the shims when PATH has them).
    private static func askedFolder() -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import os, sys; print(os.path.dirname(sys.executable))"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let folder = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return process.terminationStatus == 0 && !folder.isEmpty ? folder : nil
    }

    /// `environment` with the real interpreter's folder first on its PATH, when PATH goes through pyenv's shims.
    public static func skippingShims(_ environment: [String: String]) -> [String: String] {
        guard let path = environment["PATH"], path.contains("/shims"), let folder else { return environment }
        var changed = environment
        changed["PATH"] = folder + ":" + path
        return changed
    }
}

/// `posix_spawn` attributes giving a child a clean signal state whatever the test process holds: nothing blocked,
/// every signal at its default action. Owns the attributes and destroys them when released.
public final class CleanSpawnAttributes {
    public var attributes = posix_spawnattr_t()

    public init() {
        posix_spawnattr_init(&attributes)
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        sigfillset(&signals)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    }

    deinit { posix_spawnattr_destroy(&attributes) }
}
