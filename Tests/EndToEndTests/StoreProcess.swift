import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
    func saveRoot(to path: String) async throws {
        let (data, _) = try await URLSession.shared.data(from: URL(string: url + "/test/v1/root-certificate")!)
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// A purchase made at the store directly, as if the app paid and stopped before recording anything.
    func purchase(_ product: String = "ai.voicedebrief.app.credit.500") async throws -> String {
        var request = URLRequest(url: URL(string: url + "/storekit/v1/purchases")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"productId":"\#(product)"}"#.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, _) = try await URLSession.shared.data(for: request)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(object["signedTransaction"] as? String, "no signed transaction: \(object)")
    }

    /// How many transactions the store holds unfinished.
    func unfinishedCount() async throws -> Int {
        let (data, _) = try await URLSession.shared.data(
            from: URL(string: url + "/storekit/v1/transactions/unfinished")!)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(object["signedTransactions"] as? [Any]).count
    }
}
