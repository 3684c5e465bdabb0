import Foundation
import Platform
import StoreTransport
import Synchronization

/// A `mockstore` for one test, run as a child process: in memory by default (a fresh store, nothing on disk, any
/// number at once), on a free port of 127.0.0.1, stopped when the test's process goes (`--exit-with-parent
/// --parent-pid` with this process's pid, always) and when this value is released. Its test controls are typed calls
/// (``buy(_:quantity:appAccountToken:offer:)``, ``refund(_:reason:percentage:)``, ``advanceClock(by:)``, …), and a
/// test waits for what the store records, never for a time:
/// `try await store.notifications(of: .refund, count: 1, within: .seconds(10))`.
///
/// Starting and stopping hold no thread of Swift's cooperative pool: the listening line is read on a thread of the
/// store's own and its exit reaped by `waitpid` on another, each resuming the waiting task the moment it comes.
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
        /// The StoreKit configuration file (a path, relative to the test's working directory or absolute); nil:
        /// `$MOCKSTORE_CATALOGUE`, else `Catalogue/Credit.storekit` in the store's working directory, else the one
        /// the VoiceDebriefCredit checkout ships (its `Catalogue/Credit.storekit`: the consumable
        /// `ai.voicedebrief.app.credit.500`).
        public var catalogue: String?
        /// The app's bundle id (`--bundle-id`): in every signed transaction, and the `bid` the store wants in a
        /// Server API bearer token (``TestStore/serverAPI`` signs with it). nil: the store's default,
        /// `ai.voicedebrief.app`. A `--bundle-id` in ``arguments`` wins.
        public var bundleID: String?
        /// Which Server API bearer tokens the store accepts.
        public var bearerTokens: BearerTokens = .ownKey
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
        /// Where the store runs; nil: the `mockstore` binary, as a child process (``binary``, ``workingDirectory``
        /// and ``processEnvironment`` say how). A store in this process (`StoreHost.inProcess`, from
        /// `MockStoreInProcess`) reads the same command line and environment, and cannot be signalled: stopping it
        /// with any signal stops it as SIGTERM does, and gives the status the binary would have.
        public var host: StoreHost?

        public init() {}
    }

    /// Which App Store Server API bearer tokens a store accepts.
    public enum BearerTokens: Sendable {
        /// Those signed by a P-256 key the test store makes for itself (``TestStore/serverAPI`` signs with it) or
        /// by any key given with `--api-key KEYID=FILE` in ``Options/arguments`` (your server's `.p8`), checked as
        /// Apple checks them.
        case ownKey
        /// No key of its own: the store checks tokens as `mockstore` does with only the `--api-key`s in
        /// ``Options/arguments``, and with none accepts any well-formed ES256 token unchecked (then
        /// ``TestStore/serverAPI`` still works).
        case withoutOwnKey
    }

    /// The App Store environment a store plays.
    public enum Environment: String, Sendable {
        case sandbox
        case production
    }

    /// `http://127.0.0.1:PORT`.
    public let url: URL
    public let port: UInt16
    /// The process id, for a test that checks it is gone (this process's, for a store in it: see ``isInProcess``).
    public let processIdentifier: Int32
    /// The bundle id the store plays.
    public let bundleID: String
    /// The key the store trusts for Server API bearer tokens.
    let apiKey: ServerAPIKey
    /// The app side's store client: every request whole within its deadline, its answer's body bounded.
    let http: StoreHTTP
    private let child: any StoreRunner

    /// Starts a store and waits, holding no thread, until it listens.
    public static func start(_ options: Options = Options()) async throws -> TestStore {
        let apiKey = try ServerAPIKey.make()
        let child = try runner(options, apiKey)
        return try TestStore(child, options, apiKey, await child.started.value(within: options.startTimeout))
    }

    /// ``start(_:)`` for a test that does not run async: blocks its thread until the store listens.
    public static func launch(_ options: Options = Options()) throws -> TestStore {
        let apiKey = try ServerAPIKey.make()
        let child = try runner(options, apiKey)
        return try TestStore(child, options, apiKey, child.started.valueBlocking(within: options.startTimeout))
    }

    /// The store the options ask for, started: in this process by their host, else the binary as a child.
    private static func runner(_ options: Options, _ apiKey: ServerAPIKey) throws -> any StoreRunner {
        let launch = try StoreLaunch(options, apiKey: apiKey)
        if let host = options.host {
            return try HostedRunner(host, launch, workingDirectory: options.workingDirectory)
        }
        return try StoreChild(options, launch)
    }

    private init(_ child: any StoreRunner, _ options: Options, _ apiKey: ServerAPIKey, _ start: StoreStart?) throws {
        guard case .listening(let url, let port) = start, let address = URL(string: url) else {
            child.send(SIGKILL)
            throw TestStoreError.didNotStart(output: child.standardOutput + child.standardError)
        }
        self.child = child
        self.url = address
        http = StoreHTTP(baseURL: address, timeout: TestStore.requestDeadline)
        self.port = port
        processIdentifier = child.processIdentifier
        bundleID = Self.bundleID(options)
        self.apiKey = apiKey
    }

    /// How long one request to the store may take, whole: long enough for a control that moves the clock over a
    /// year of renewals on a loaded machine, short enough that a store that never answers fails the test.
    static let requestDeadline: TimeInterval = 60

    /// A store released without ``stop(signal:)`` is stopped here: SIGTERM, and this thread waits (on a semaphore the
    /// exit signals, SIGKILL after 20 s) until the process has gone, so a store released is a store gone. A test that
    /// must not block its thread stops the store with ``stop(signal:)`` first.
    deinit {
        http.invalidate()
        child.beginStop(SIGTERM)
        _ = child.exited.valueBlocking(within: nil)
    }

    /// The `mockstore` arguments for `options`, `environment` the store's, its API key in the file `apiKeyFile`.
    /// The store watches this process by its pid, given here: a test process that dies while the store starts is
    /// never missed.
    static func arguments(_ options: Options, environment: [String: String], apiKeyFile: String?) -> [String] {
        var arguments = [
            "--host", "127.0.0.1", "--port", "0", "--exit-with-parent", "--parent-pid", String(getpid()),
        ]
        if let bundleID = options.bundleID, bundleIDArgument(options.arguments) == nil {
            arguments += ["--bundle-id", bundleID]
        }
        if let directory = options.dataDirectory {
            arguments += ["--data", directory]
        } else {
            arguments.append("--ephemeral")
        }
        if let catalogue = options.catalogue ?? checkoutCatalogue(options, environment: environment) {
            arguments += ["--catalogue", catalogue]
        }
        if let apiKeyFile { arguments += ["--api-key", ServerAPIKey.keyID + "=" + apiKeyFile] }
        if options.environment == .production { arguments += ["--environment", "production"] }
        if let notify = options.notify { arguments += ["--notify", notify.absoluteString] }
        return arguments + options.arguments
    }

    /// The bundle id the store plays: the `--bundle-id` in the arguments, else the one given, else the store's
    /// default.
    static func bundleID(_ options: Options) -> String {
        bundleIDArgument(options.arguments) ?? options.bundleID ?? "ai.voicedebrief.app"
    }

    /// The value of a `--bundle-id` in `arguments` (`--bundle-id ID` or `--bundle-id=ID`).
    private static func bundleIDArgument(_ arguments: [String]) -> String? {
        for (index, argument) in arguments.enumerated() {
            if argument == "--bundle-id", index + 1 < arguments.count { return arguments[index + 1] }
            if argument.hasPrefix("--bundle-id=") { return String(argument.dropFirst("--bundle-id=".count)) }
        }
        return nil
    }

    /// The checkout's catalogue, when neither `$MOCKSTORE_CATALOGUE` nor the store's working directory has one.
    private static func checkoutCatalogue(_ options: Options, environment: [String: String]) -> String? {
        if let named = environment["MOCKSTORE_CATALOGUE"], !named.isEmpty { return nil }
        let directory = options.workingDirectory ?? FileManager.default.currentDirectoryPath
        if FileManager.default.fileExists(atPath: directory + "/" + Checkout.defaultCatalogue) { return nil }
        return Checkout.catalogue
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

    /// Whether the process is still running (false once its exit has been told).
    public var isRunning: Bool { !child.exited.hasValue }

    /// Whether the store runs in this process (``Options/host``) rather than as a `mockstore` process of its own.
    public var isInProcess: Bool { child.isInProcess }

    /// What the store wrote to standard error so far.
    public var standardError: String { child.standardError }

    /// What the store wrote to standard output so far.
    public var standardOutput: String { child.standardOutput }

    /// Sends `signal` (SIGTERM unless said), waits for the exit holding no thread (SIGKILL if it has not gone within
    /// 20 s), and gives its exit status (the signal's number when a signal ended it); once: later calls give the
    /// same status and send nothing.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM) async -> Int32 {
        child.beginStop(signal)
        return await child.exited.value(within: nil) ?? SIGKILL
    }

    /// ``stop(signal:)`` for a test that does not run async: blocks its thread until the store has gone.
    @discardableResult
    public func stopNow(signal: Int32) -> Int32 {
        child.beginStop(signal)
        return child.exited.valueBlocking(within: nil) ?? SIGKILL
    }
}
