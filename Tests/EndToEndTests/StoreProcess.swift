import Foundation
import TestSupport
import Testing

/// The real `mockstore` binary on a free port (``LaunchedMockStore``), for end-to-end tests of the top-up flow.
/// Stopped with SIGTERM when the test calls ``stop()`` or the object is released.
final class StoreProcess {
    let store: LaunchedMockStore
    var url: String { store.url }
    var dataDirectory: String { store.dataDirectory }

    static var binary: String { get throws { try Binaries.require("mockstore") } }

    /// The repository's catalogue.
    static var catalogue: String { Repository.catalogue }

    init(dataDirectory: String, arguments: [String] = [], catalogue: String = StoreProcess.catalogue) throws {
        store = try LaunchedMockStore(dataDirectory: dataDirectory, arguments: arguments, catalogue: catalogue)
    }

    func stop() {
        _ = try? store.stop()
    }

    /// The store's test root certificate, saved to `path`.
    func saveRoot(to path: String) async throws { try store.saveRoot(to: path) }

    /// A purchase made at the store directly, as if the app paid and stopped before recording anything.
    func purchase(_ product: String = "ai.voicedebrief.app.credit.500") async throws -> String {
        try store.purchase(product)
    }

    /// How many transactions the store holds unfinished.
    func unfinishedCount() async throws -> Int { try store.unfinished().count }

    /// `mockstore control --url <this store> arguments`, which must succeed; what it printed.
    @discardableResult
    func control(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let result = try await ChildProcess.run(
            try StoreProcess.binary, ["control", "--url", url] + arguments,
            environment: ProcessInfo.processInfo.environment, timeout: 60)
        #expect(result.status == 0, "mockstore control \(arguments): \(result)", sourceLocation: sourceLocation)
        return result.stdout
    }
}
