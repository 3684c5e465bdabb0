import Foundation
import MockStoreTesting
import StoreWire
import TestSupport
import Testing

/// A mock store (in the test's process, or the `mockstore` binary: ``StoreRun``) on a free port with its own data
/// directory, for end-to-end tests of the top-up flow:
/// started by the test library (``TestStore``, its start and stop waited for holding no thread), whose typed calls
/// are the store's test controls (``store``). Stopped with SIGTERM when the test calls ``stop()`` or the object is
/// released.
final class StoreProcess {
    /// The test library's store: typed controls.
    let store: TestStore
    let dataDirectory: String
    /// `http://127.0.0.1:PORT`.
    var url: String { store.url.absoluteString }

    /// The repository's catalogue.
    static var catalogue: String { Repository.catalogue }

    /// Whether this is the store the tests share (``withShared(catalogue:_:)``), which no test stops.
    private let isShared: Bool

    private init(_ store: TestStore, dataDirectory: String) {
        self.store = store
        self.dataDirectory = dataDirectory
        isShared = false
    }

    /// The shared store (``withShared(catalogue:_:)``): in memory, no data directory.
    init(shared store: TestStore) {
        self.store = store
        dataDirectory = ""
        isShared = true
    }

    /// Starts `mockstore --data dataDirectory --catalogue catalogue arguments`, in this process unless `run` says the
    /// binary, and waits until it listens.
    static func start(
        dataDirectory: String, arguments: [String] = [], catalogue: String = StoreProcess.catalogue,
        run: StoreRun = .inProcess
    ) async throws -> StoreProcess {
        var options = TestStore.Options()
        options.dataDirectory = dataDirectory
        options.catalogue = catalogue
        options.arguments = arguments
        try options.run(run)
        do {
            return StoreProcess(try await TestStore.start(options), dataDirectory: dataDirectory)
        } catch {
            throw SupportFailure("\(error)")
        }
    }

    /// SIGTERM, and waits until it has gone.
    func stop() async {
        // Stopping it would stop it under every other test using it: a test that stops its store starts its own.
        guard !isShared else {
            Issue.record("the shared store is not a test's to stop: start a store of the test's own")
            return
        }
        await store.stop()
    }

    /// The store's test root certificate (DER), saved to `path`.
    func saveRoot(to path: String) async throws {
        try await store.rootCertificate().write(to: URL(fileURLWithPath: path))
    }

    /// A purchase made at the store directly, as if the app paid and stopped before recording anything.
    @discardableResult
    func purchase(_ product: String = "ai.voicedebrief.app.credit.500") async throws -> String {
        let answer = try await store.purchaseOnDevice(product)
        return try #require(answer.signedTransaction, "no signed transaction: \(answer.result)")
    }

    /// How many transactions the store holds unfinished.
    func unfinishedCount() async throws -> Int { try await store.send(DeviceAPI.unfinished).signedTransactions.count }
}
