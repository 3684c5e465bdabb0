import Foundation
import Platform
import Synchronization

/// The `mockstore` process behind a ``TestStore``: started with `posix_spawn` (every signal unblocked and at its
/// default, whatever thread starts it), its standard output read on a thread of its own (so the listening line is
/// seen the moment it is written) and its exit waited for by `waitpid` on another, so nothing polls and no thread of
/// the cooperative pool waits.
final class StoreChild: StoreRunner {
    let processIdentifier: Int32
    /// Fires once: the listening line, or the exit before it.
    let started = OneShot<StoreStart>()
    /// Fires once, with the exit status (the signal's number when a signal ended it).
    let exited = OneShot<Int32>()
    private let output = OutputBuffer()
    private let launch: StoreLaunch
    private let stopping = Mutex(false)

    init(_ options: TestStore.Options, _ launch: StoreLaunch) throws {
        let binary = try StoreBinary.find(options.binary)
        self.launch = launch
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw TestStoreError.didNotStart(output: "no pipe for its output: \(String(cString: strerror(errno)))")
        }
        // Not inherited by any other child this process starts meanwhile (the store's own copy is its stdout).
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        do {
            processIdentifier = try Self.spawn(
                binary, launch.arguments, environment: launch.environment, stdout: ends[1],
                stderr: launch.folder + "/stderr", workingDirectory: options.workingDirectory)
        } catch {
            close(ends[0])
            close(ends[1])
            throw error
        }
        close(ends[1])
        readOutput(ends[0])
        waitForExit()
    }

    var standardOutput: String { output.text }

    var standardError: String {
        String(decoding: FileManager.default.contents(atPath: launch.folder + "/stderr") ?? Data(), as: UTF8.self)
    }

    /// Sends `signal` while it runs, without waiting.
    func send(_ signal: Int32) {
        if !exited.hasValue { _ = kill(processIdentifier, signal) }
    }

    /// Sends `signal` the first time only, and SIGKILL 20 s later if it has not gone by then.
    func beginStop(_ signal: Int32) {
        let first = stopping.withLock { stopping in
            defer { stopping = true }
            return !stopping
        }
        guard first, !exited.hasValue else { return }
        send(signal)
        DispatchQueue.global().asyncAfter(deadline: .now() + 20) { [self] in send(SIGKILL) }
    }

    /// Reads the store's standard output until it closes, on a thread of its own; the first complete listening
    /// line fires ``started``.
    private func readOutput(_ descriptor: Int32) {
        let output = output
        let started = started
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                let text = output.append(Data(buffer[0..<count]))
                if let found = TestStore.listeningAddress(in: text) {
                    started.fire(.listening(url: found.url, port: found.port))
                }
            }
            close(descriptor)
        }
        thread.stackSize = 128 * 1024
        thread.start()
    }

    /// Reaps the store when it exits, on a thread of its own, and fires ``exited`` (and ``started``, if it had not
    /// listened) with its status.
    private func waitForExit() {
        let pid = processIdentifier
        let exited = exited
        let started = started
        let thread = Thread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            // The wait(2) status: low 7 bits the signal (0 for a normal exit), next byte the code.
            let signal = status & 0x7F
            exited.fire(signal != 0 ? signal : (status >> 8) & 0xFF)
            started.fire(.exited)
        }
        thread.stackSize = 64 * 1024
        thread.start()
    }

    /// `posix_spawn` of `executable` with standard input from `/dev/null`, standard output `stdout`, standard error
    /// the file `stderr`, in `workingDirectory` when given, and every signal unblocked and at its default: the
    /// spawning thread may be one of Dispatch's, which block signals, and a mask is inherited.
    static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String], stdout: Int32, stderr: String,
        workingDirectory: String?
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let workingDirectory {
            guard let changeDirectory = SpawnChangeDirectory.function else {
                throw TestStoreError.didNotStart(output: "this C library cannot start a process in another folder")
            }
            _ = changeDirectory(&actions, workingDirectory)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Nothing else of this process's: a pipe another test is reading would otherwise stay open in the store, and
        // that test would wait for its end as long as the store lives.
        guard let closeFrom = SpawnCloseFrom.function else {
            throw TestStoreError.didNotStart(output: "this C library cannot start a process without its open files")
        }
        _ = closeFrom(&actions, 3)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        sigfillset(&signals)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw TestStoreError.didNotStart(output: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        return child
    }
}

/// `posix_spawn_file_actions_addchdir_np` (glibc 2.29 and later), which the C library declares only for
/// `_GNU_SOURCE`: found at run time.
private enum SpawnChangeDirectory {
    typealias Function =
        @convention(c) (
            UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
        ) -> Int32

    static let function: Function? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
        else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }()
}

/// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34 and later), declared only for `_GNU_SOURCE`: found at
/// run time.
private enum SpawnCloseFrom {
    typealias Function = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    static let function: Function? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }()
}

/// What the store wrote to its standard output so far.
final class OutputBuffer: Sendable {
    private let bytes = Mutex(Data())

    /// Adds `data`, and gives everything so far as text.
    func append(_ data: Data) -> String {
        bytes.withLock { bytes in
            bytes.append(data)
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    var text: String { bytes.withLock { String(decoding: $0, as: UTF8.self) } }
}

/// A value that arrives once; waiting for it holds no thread of the cooperative pool (an async wait is a
/// continuation resumed by whoever fires it), and a blocking wait (for code that is not async) a semaphore.
final class OneShot<Value: Sendable>: Sendable {
    private enum Waiter {
        case task(CheckedContinuation<Value?, Never>)
        case thread(DispatchSemaphore)
    }

    private struct State {
        var value: Value?
        var waiting: [UUID: Waiter] = [:]
    }

    private let state = Mutex(State())

    /// Whether the value has arrived.
    var hasValue: Bool { state.withLock { $0.value != nil } }

    /// Gives the value to every waiter, the first time only.
    func fire(_ value: Value) {
        let waiting = state.withLock { state -> [Waiter] in
            guard state.value == nil else { return [] }
            state.value = value
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for waiter in waiting {
            switch waiter {
            case .task(let continuation): continuation.resume(returning: value)
            case .thread(let semaphore): semaphore.signal()
            }
        }
    }

    /// The value once it arrives; nil when `within` (if any) passes first.
    func value(within: Duration?) async -> Value? {
        let id = UUID()
        return await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            let now = state.withLock { state -> Value?? in
                if let value = state.value { return .some(value) }
                state.waiting[id] = .task(continuation)
                return .none
            }
            if let now {
                continuation.resume(returning: now)
            } else if let within {
                DispatchQueue.global().asyncAfter(deadline: .now() + Self.seconds(within)) { self.giveUp(id) }
            }
        }
    }

    /// The value once it arrives, blocking this thread; nil when `within` (if any) passes first.
    func valueBlocking(within: Duration?) -> Value? {
        let id = UUID()
        let semaphore = DispatchSemaphore(value: 0)
        let now = state.withLock { state -> Value?? in
            if let value = state.value { return .some(value) }
            state.waiting[id] = .thread(semaphore)
            return .none
        }
        if let now { return now }
        _ = semaphore.wait(timeout: within.map { .now() + Self.seconds($0) } ?? .distantFuture)
        return state.withLock { state in
            state.waiting[id] = nil
            return state.value
        }
    }

    /// Resumes the async waiter `id` with nil (its time is up), if it still waits.
    private func giveUp(_ id: UUID) {
        guard case .task(let continuation) = state.withLock({ $0.waiting.removeValue(forKey: id) }) else { return }
        continuation.resume(returning: nil)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
