import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fresh directory under the system temporary directory, removed with everything in it when released.
final class ScratchDirectory {
    let path: String

    /// `inMemory`: on /dev/shm when there is one (in-process suites whose fsyncs need not reach a disk).
    init(_ prefix: String = "credit-reliability", inMemory: Bool = false) throws {
        let base = inMemory && FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        var template = Array((base + "/\(prefix)-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
        }
        path = try #require(created, "mkdtemp failed")
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }
}

/// The binaries built beside the test bundle: `credit` and `mockstore` (or in `RELIABILITY_BIN_DIR`, to run the
/// suites against another build, e.g. the last commit's, to see what they find there).
enum Binaries {
    static let directory: String = {
        if let given = ProcessInfo.processInfo.environment["RELIABILITY_BIN_DIR"], !given.isEmpty { return given }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable =
            count > 0
            ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments[0]
        var directory = (executable as NSString).deletingLastPathComponent
        if directory.hasSuffix("/Contents/MacOS") {
            for _ in 0..<3 { directory = (directory as NSString).deletingLastPathComponent }
        }
        return directory
    }()

    static func require(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let path = directory + "/" + name
        return try #require(
            FileManager.default.isExecutableFile(atPath: path) ? path : nil,
            "\(name) is not built beside the tests: swift build --scratch-path .build-rel --build-tests first",
            sourceLocation: sourceLocation)
    }

    /// The repository root, from this source file.
    static let repository: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()
}

/// What one run of a binary did.
struct ProcessResult: CustomStringConvertible {
    var status: Int32
    /// Killed by a signal (the status is then the signal number).
    var signaled: Bool
    var stdout: String
    var stderr: String
    var timedOut = false

    var killedBySIGKILL: Bool { signaled && status == SIGKILL }
    var succeeded: Bool { !signaled && status == 0 }

    var description: String {
        "\(signaled ? "signal \(status)" : "exit \(status)")\(timedOut ? " (timed out)" : "")\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
    }

    func jsonObject() -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
    }

    func jsonArray() -> [[String: Any]]? {
        (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [[String: Any]]
    }
}

/// A started child process, its output going to files.
final class ChildProcess {
    let pid: pid_t
    let stdoutPath: String
    private let errPath: String
    private let scratch: ScratchDirectory
    private(set) var result: ProcessResult?

    /// Starts `executable` with `arguments` and exactly `environment`.
    init(_ executable: String, _ arguments: [String], environment: [String: String], input: String? = nil) throws {
        scratch = try ScratchDirectory("child")
        stdoutPath = scratch.file("stdout")
        errPath = scratch.file("stderr")
        let inPath = scratch.file("stdin")
        guard FileManager.default.createFile(atPath: inPath, contents: Data((input ?? "").utf8)) else {
            throw ProcessFailure("cannot write the child's standard input to \(inPath)")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, nil, argv, envp)
        guard status == 0 else {
            throw ProcessFailure("cannot start \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
    }

    /// Whether it has exited (collecting its status if so).
    var hasExited: Bool {
        if result != nil { return true }
        var status: Int32 = 0
        let done = waitpid(pid, &status, WNOHANG)
        if done == pid {
            collect(status, timedOut: false)
            return true
        }
        return false
    }

    /// Waits up to `timeout` seconds; then kills it with SIGKILL and says it timed out.
    @discardableResult
    func wait(timeout: Double) -> ProcessResult {
        let deadline = Date().addingTimeInterval(timeout)
        var pause = 0.001
        while !hasExited {
            if Date() > deadline {
                sendSignal(pid, SIGKILL)
                var status: Int32 = 0
                waitpid(pid, &status, 0)
                collect(status, timedOut: true)
                break
            }
            usleep(useconds_t(pause * 1_000_000))
            pause = min(pause * 2, 0.02)
        }
        return result!
    }

    /// Sends `signal` (SIGKILL unless said) if it is still running.
    func send(_ signal: Int32 = SIGKILL) {
        if result == nil { sendSignal(pid, signal) }
    }

    private func collect(_ status: Int32, timedOut: Bool) {
        let signaled = (status & 0x7F) != 0 && (status & 0x7F) != 0x7F
        let code = signaled ? status & 0x7F : (status >> 8) & 0xFF
        let stdout = String(decoding: FileManager.default.contents(atPath: stdoutPath) ?? Data(), as: UTF8.self)
        let stderr = String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self)
        result = ProcessResult(status: code, signaled: signaled, stdout: stdout, stderr: stderr, timedOut: timedOut)
    }

    deinit {
        if result == nil {
            sendSignal(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }
}

struct ProcessFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs the real `credit` binary on one data directory.
struct CreditRunner {
    let binary: String
    let dataDirectory: String
    /// A fixed clock for `CREDIT_NOW`, or nil for the system clock.
    var now: String?
    /// How long one command may take before it counts as a hang.
    var timeout: Double = 60

    init(dataDirectory: String, now: String? = nil) throws {
        binary = try Binaries.require("credit")
        self.dataDirectory = dataDirectory
        self.now = now
    }

    func environment(fault: String?) -> [String: String] {
        var env: [String: String] = [:]
        for name in ["PATH", "TMPDIR", "LANG", "LC_ALL"] {
            if let value = Reliability.environment[name] { env[name] = value }
        }
        env["NO_COLOR"] = "1"
        env["HOME"] = dataDirectory + "-home"
        if let now { env["CREDIT_NOW"] = now }
        if let fault { env["CREDIT_FAULT"] = fault }
        return env
    }

    func start(_ arguments: [String], fault: String? = nil, input: String? = nil) throws -> ChildProcess {
        try ChildProcess(
            binary, ["--data-dir", dataDirectory] + arguments, environment: environment(fault: fault), input: input)
    }

    /// Runs `credit ARGUMENTS`, with `CREDIT_FAULT=fault` when given, and waits for it.
    func run(_ arguments: [String], fault: String? = nil, input: String? = nil) throws -> ProcessResult {
        try start(arguments, fault: fault, input: input).wait(timeout: timeout)
    }

    /// Runs and expects exit 0.
    @discardableResult
    func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> ProcessResult {
        let result = try run(arguments)
        try #require(
            result.succeeded, "credit \(arguments.joined(separator: " ")) failed: \(result)",
            sourceLocation: sourceLocation)
        return result
    }

    /// `credit balance --json`.
    func balance(sourceLocation: SourceLocation = #_sourceLocation) throws -> Int64 {
        let object = try #require(
            try ok(["balance", "--json"], sourceLocation: sourceLocation).jsonObject(), sourceLocation: sourceLocation)
        return try #require((object["balance"] as? NSNumber)?.int64Value, sourceLocation: sourceLocation)
    }
}

/// `kill(2)`, under a name no method shadows.
func sendSignal(_ pid: pid_t, _ signal: Int32) {
    _ = kill(pid, signal)
}
