import Foundation
import Platform
import Synchronization

/// A `mockstore` for one test, run as a child process: in memory by default (a fresh store, nothing on disk, any
/// number at once), on a free port of 127.0.0.1, stopped when the test's process goes (`--exit-with-parent`,
/// always) and when this value is released. Its test controls are typed calls (``buy(_:quantity:appAccountToken:)``,
/// ``refund(_:reason:percentage:)``, ``advanceClock(by:)``, …), and a test waits for what the store records, never
/// for a time: `try await store.notifications(of: .refund, count: 1, within: .seconds(10))`.
///
/// ```swift
/// let store = try await TestStore.start()
/// let bought = try await store.buy("com.example.coins.100")
/// try await store.refund(bought.transaction.transactionId)
/// let refunds = try await store.notifications(of: .refund, within: .seconds(10))
/// ```
public final class TestStore: Sendable {
    /// How the store is started.
    public struct Options: Sendable {
        /// The StoreKit configuration file; nil: found the way `mockstore` finds it (`$MOCKSTORE_CATALOGUE`, else
        /// `Catalogue/Credit.storekit` in the working directory, beside the binary or in a folder above it).
        public var catalogue: String?
        /// Where the store keeps its state; nil: in memory (`--ephemeral`).
        public var dataDirectory: String?
        /// The App Store environment the store plays.
        public var environment: Environment = .sandbox
        /// Where Server Notifications V2 are posted, if anywhere.
        public var notify: URL?
        /// Any other `mockstore` arguments (`--signing hs256`, `--api-key KEYID=FILE`, …).
        public var arguments: [String] = []
        /// The binary; nil: `$MOCKSTORE_BINARY`, beside the test executable, a `.build` folder above the working
        /// directory, then `PATH`.
        public var binary: String?
        /// The process's working directory; nil: this one.
        public var workingDirectory: String?
        /// The process's environment; nil: this process's. Either way `MOCKSTORE_DATA` is taken out (the options
        /// choose the data), and `MOCKSTORE_CATALOGUE` too when a catalogue is given.
        public var processEnvironment: [String: String]?
        /// How long the store may take to listen.
        public var startTimeout: Duration = .seconds(30)

        public init() {}
    }

    /// The App Store environment a store plays.
    public enum Environment: String, Sendable {
        case sandbox
        case production
    }

    /// `http://127.0.0.1:PORT`.
    public let url: URL
    public let port: UInt16
    /// The process id, for a test that checks it is gone.
    public let processIdentifier: Int32
    private let process: Mutex<ProcessBox>
    private let outputDirectory: String

    /// Foundation's process, held only under the mutex.
    private struct ProcessBox: @unchecked Sendable {
        let process: Process
        var stopped = false
    }

    /// Starts a store and waits until it listens.
    public static func start(_ options: Options = Options()) async throws -> TestStore {
        try launch(options)
    }

    /// ``start(_:)`` for a test that does not run async: blocks until the store listens.
    public static func launch(_ options: Options = Options()) throws -> TestStore {
        let binary = try StoreBinary.find(options.binary)
        let output = NSTemporaryDirectory() + "/mockstore-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments(options)
        var environment = options.processEnvironment ?? ProcessInfo.processInfo.environment
        // The options choose the data and the catalogue, never the test's environment by accident.
        environment["MOCKSTORE_DATA"] = nil
        if options.catalogue != nil { environment["MOCKSTORE_CATALOGUE"] = nil }
        process.environment = environment
        if let directory = options.workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        FileManager.default.createFile(atPath: output + "/stdout", contents: nil)
        FileManager.default.createFile(atPath: output + "/stderr", contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: output + "/stdout")
        process.standardError = FileHandle(forWritingAtPath: output + "/stderr")
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return try TestStore(process: process, output: output, timeout: options.startTimeout)
    }

    private init(process: Process, output: String, timeout: Duration) throws {
        self.process = Mutex(ProcessBox(process: process))
        outputDirectory = output
        processIdentifier = process.processIdentifier
        let deadline = ContinuousClock.now + timeout
        var found: (url: String, port: UInt16)?
        while found == nil && process.isRunning && ContinuousClock.now < deadline {
            found = Self.listeningAddress(in: Self.text(output + "/stdout"))
            if found == nil { usleep(5_000) }
        }
        found = found ?? Self.listeningAddress(in: Self.text(output + "/stdout"))
        guard let found, let url = URL(string: found.url) else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let said = Self.text(output + "/stdout") + Self.text(output + "/stderr")
            try? FileManager.default.removeItem(atPath: output)
            throw TestStoreError.didNotStart(output: said)
        }
        self.url = url
        port = found.port
    }

    deinit {
        _ = stopNow(signal: SIGTERM)
        try? FileManager.default.removeItem(atPath: outputDirectory)
    }

    /// The `mockstore` arguments for `options`.
    static func arguments(_ options: Options) -> [String] {
        var arguments = ["--host", "127.0.0.1", "--port", "0", "--exit-with-parent"]
        if let directory = options.dataDirectory {
            arguments += ["--data", directory]
        } else {
            arguments.append("--ephemeral")
        }
        if let catalogue = options.catalogue { arguments += ["--catalogue", catalogue] }
        if options.environment == .production { arguments += ["--environment", "production"] }
        if let notify = options.notify { arguments += ["--notify", notify.absoluteString] }
        return arguments + options.arguments
    }

    /// The URL and port of the first complete `listening on URL` line of `output`.
    public static func listeningAddress(in output: String) -> (url: String, port: UInt16)? {
        guard let range = output.range(of: "listening on ") else { return nil }
        let rest = output[range.upperBound...]
        guard rest.contains(where: \.isWhitespace) else { return nil }  // the line is not all out yet
        let url = String(rest.prefix { !$0.isWhitespace })
        guard let port = url.split(separator: ":").last.flatMap({ UInt16($0.prefix { $0.isNumber }) }) else {
            return nil
        }
        return (url, port)
    }

    /// Whether the process is still running.
    public var isRunning: Bool { process.withLock { $0.process.isRunning } }

    /// What the store wrote to standard error so far.
    public var standardError: String { Self.text(outputDirectory + "/stderr") }

    /// What the store wrote to standard output so far.
    public var standardOutput: String { Self.text(outputDirectory + "/stdout") }

    /// Stops the store (SIGTERM; SIGKILL if it has not gone within 20 s) and gives its exit status.
    @discardableResult
    public func stop() async -> Int32 { stopNow(signal: SIGTERM) }

    /// Sends `signal`, waits for the exit (SIGKILL after 20 s), and gives the status; once.
    @discardableResult
    public func stopNow(signal: Int32) -> Int32 {
        process.withLock { box in
            let process = box.process
            if !box.stopped && process.isRunning {
                kill(process.processIdentifier, signal)
                let deadline = ContinuousClock.now + .seconds(20)
                while process.isRunning && ContinuousClock.now < deadline { usleep(2_000) }
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            }
            box.stopped = true
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    private static func text(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }
}
