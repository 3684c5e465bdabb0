import Foundation
import MockStoreTesting
import StoreWire
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A mock store with its own data directory (in the test's process, or the real `mockstore` binary: ``StoreRun``),
/// started by the test library (``TestStore``: a free port, its start and stop waited for holding no thread,
/// stopped when released), with the raw-HTTP helpers the suites use on top. ``store`` is the test library's value,
/// for typed controls and waiting for notifications.
public final class LaunchedMockStore {
    public let store: TestStore
    public let dataDirectory: String
    /// `http://127.0.0.1:PORT`, from the listening line.
    public var url: String { store.url.absoluteString }
    public var port: UInt16 { store.port }

    private init(_ store: TestStore, dataDirectory: String) {
        self.store = store
        self.dataDirectory = dataDirectory
    }

    /// Starts `mockstore --port 0 --data dataDirectory --catalogue catalogue arguments` with exactly `environment`,
    /// in this process unless `run` says the binary, and waits (up to `timeout` seconds) for its listening line.
    public static func start(
        dataDirectory: String, arguments: [String] = [], catalogue: String = Repository.catalogue,
        environment: [String: String] = ProcessInfo.processInfo.environment, timeout: TimeInterval = 30,
        run: StoreRun = .inProcess
    ) async throws -> LaunchedMockStore {
        var options = TestStore.Options()
        options.dataDirectory = dataDirectory
        options.catalogue = catalogue
        options.arguments = arguments
        options.processEnvironment = environment
        try options.run(run)
        options.startTimeout = .seconds(timeout)
        do {
            return LaunchedMockStore(try await TestStore.start(options), dataDirectory: dataDirectory)
        } catch {
            throw SupportFailure("\(error)")
        }
    }

    /// The URL and port of the first complete `listening on URL` line of `output`.
    public static func listeningAddress(in output: String) -> (url: String, port: UInt16)? {
        TestStore.listeningAddress(in: output)
    }

    /// Whether the process is still running (it must survive bad requests).
    public var isRunning: Bool { store.isRunning }

    /// The process id (a store in this process has none of its own: the test records an issue and gets 0).
    public var pid: pid_t {
        guard !store.isInProcess else {
            Issue.record("a store in the test's process has no process of its own: start it with StoreRun.binary")
            return 0
        }
        return store.processIdentifier
    }

    /// Sends `signal` to the process (SIGSTOP and SIGCONT, say), without waiting.
    public func send(_ signal: Int32) {
        guard store.canTake(signal), !store.isInProcess else { return }
        kill(store.processIdentifier, signal)
    }

    /// What the store wrote to standard error so far.
    public var stderr: String { store.standardError }

    /// Sends `signal` and waits, holding no thread, for its exit status (SIGKILL after 20 s).
    @discardableResult
    public func stop(signal: Int32 = SIGTERM) async -> Int32 {
        _ = store.canTake(signal)
        return await store.stop(signal: signal)
    }

    // MARK: The store's test endpoints, over raw HTTP (one connection a request)

    /// `GET path`.
    public func get(_ path: String, timeout: Double = 10) throws -> RawHTTP.Reply {
        try answer(to: RawHTTP.request("GET", path), "GET \(path)", timeout: timeout)
    }

    /// `POST path` with a JSON body.
    public func post(_ path: String, json: String, timeout: Double = 10) throws -> RawHTTP.Reply {
        try answer(to: RawHTTP.request("POST", path, body: Array(json.utf8)), "POST \(path)", timeout: timeout)
    }

    /// The store's test root certificate (DER), saved to `path`.
    public func saveRoot(to path: String) throws {
        let reply = try get(SandboxAPI.rootCertificate.path())
        guard reply.status == 200 else { throw SupportFailure("no root certificate: \(reply.status) \(reply.text)") }
        try Data(reply.body).write(to: URL(fileURLWithPath: path))
    }

    /// Buys at the store directly, as if the app paid and stopped before recording anything: the signed transaction.
    public func purchase(_ product: String = "ai.voicedebrief.app.credit.500") throws -> String {
        let reply = try post(DeviceAPI.purchase.path(), json: #"{"productId":"\#(product)"}"#)
        guard let signed = Self.jsonObject(reply)?["signedTransaction"] as? String else {
            throw SupportFailure("no signed transaction: \(reply.status) \(reply.text)")
        }
        return signed
    }

    /// The transactions the store holds unfinished, as signed JWS.
    public func unfinished() throws -> [String] {
        let reply = try get(DeviceAPI.unfinished.path())
        guard let signed = Self.jsonObject(reply)?["signedTransactions"] as? [String] else {
            throw SupportFailure("no unfinished transactions: \(reply.status) \(reply.text)")
        }
        return signed
    }

    private func answer(to request: [UInt8], _ what: String, timeout: Double) throws -> RawHTTP.Reply {
        let bytes = try RawHTTP.exchange(request, port: port, timeout: timeout, halfClose: true)
        guard let reply = RawHTTP.parse(bytes) else {
            throw SupportFailure(
                "not an HTTP reply to \(what): \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
        return reply
    }

    private static func jsonObject(_ reply: RawHTTP.Reply) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(reply.body))) as? [String: Any]
    }
}
