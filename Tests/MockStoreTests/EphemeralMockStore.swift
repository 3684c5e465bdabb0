import Foundation
import MockStoreTesting
import StoreWire
import Testing

@testable import MockStoreHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real `mockstore --ephemeral` (with any other arguments), started by the test library (``TestStore``) in
/// `workingDirectory` (so the default catalogue is found from outside the repository), once it has said where it
/// listens. Stopped by ``stop()``, or when released.
final class EphemeralMockStore {
    let store: TestStore
    var url: String { store.url.absoluteString }
    var port: UInt16 { store.port }
    /// Seconds from the start of the process to its listening line (as the test saw it: the line read the moment
    /// it was written).
    let secondsToListening: Double

    /// The environment the store runs with: this one, without the variables that would choose its data or
    /// catalogue for it.
    static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["MOCKSTORE_DATA"] = nil
        environment["MOCKSTORE_CATALOGUE"] = nil
        return environment
    }

    private init(_ store: TestStore, secondsToListening: Double) {
        self.store = store
        self.secondsToListening = secondsToListening
    }

    static func start(
        _ arguments: [String] = ["--ephemeral"], workingDirectory: String,
        environment: [String: String] = EphemeralMockStore.environment
    ) async throws -> EphemeralMockStore {
        var options = TestStore.Options()
        // The library starts it in memory: `--ephemeral` is its default.
        options.arguments = arguments.filter { $0 != "--ephemeral" }
        options.workingDirectory = workingDirectory
        options.processEnvironment = environment
        options.binary = try Binaries.require("mockstore")
        return try await start(options)
    }

    /// `mockstore arguments` (a store in memory) in this process, selling the repository's catalogue: for a test of
    /// the store's HTTP behaviour rather than of the binary's start.
    static func inProcess(_ arguments: [String]) async throws -> EphemeralMockStore {
        var options = TestStore.Options()
        options.arguments = arguments.filter { $0 != "--ephemeral" }
        options.catalogue = Repository.catalogue
        try options.run(.inProcess)
        return try await start(options)
    }

    /// A store started with `options`, timed from the call to its listening.
    private static func start(_ options: TestStore.Options) async throws -> EphemeralMockStore {
        let started = Date()
        do {
            let store = try await TestStore.start(options)
            return EphemeralMockStore(store, secondsToListening: Date().timeIntervalSince(started))
        } catch {
            throw SupportFailure("\(error)")
        }
    }

    /// Whether the process is still running.
    var isRunning: Bool { store.isRunning }

    /// What the store wrote to standard error so far.
    var stderr: String { store.standardError }

    /// SIGTERM, then its exit status (SIGKILL after 20 s), waited for holding no thread.
    @discardableResult
    func stop() async -> Int32 { await store.stop() }

    /// One request on a new connection (closed by the server after the answer).
    func request(_ method: String, _ path: String, json: String? = nil, timeout: Double = 10) throws -> RawHTTP.Reply {
        let bytes = try RawHTTP.exchange(
            RawHTTP.request(method, path, body: json.map { Array($0.utf8) }), port: port, timeout: timeout,
            halfClose: true)
        guard let reply = RawHTTP.parse(bytes) else {
            throw SupportFailure(
                "no HTTP reply to \(method) \(path): \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
        return reply
    }

    /// A purchase of the 500-credit pack: its status.
    func purchase(timeout: Double = 10) throws -> Int {
        try request(
            "POST", DeviceAPI.purchase.path(), json: #"{"productId":"ai.voicedebrief.app.credit.500"}"#,
            timeout: timeout
        )
        .status
    }
}

/// Raises this process's soft limit on open files to the hard one (the load tests hold more than 1,024 sockets):
/// the store's own ``FileDescriptorLimit``; returns the limit now in force.
func raiseOpenFileLimit() -> Int { FileDescriptorLimit.raise(toAtLeast: 1 << 20) }
