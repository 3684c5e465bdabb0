import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real `mockstore` binary on a free port, for end-to-end tests of the top-up flow. Stopped with SIGTERM when
/// the test calls ``stop()`` or the object is released.
final class StoreProcess {
    let process = Process()
    let url: String
    let dataDirectory: String
    private var stopped = false

    static var binary: String {
        get throws {
            let directory = try #require(
                Credit.binary.map { ($0 as NSString).deletingLastPathComponent }, "credit is not built")
            let path = directory + "/mockstore"
            return try #require(
                FileManager.default.isExecutableFile(atPath: path) ? path : nil, "mockstore is not built beside credit")
        }
    }

    /// The repository's catalogue, found from this source file.
    static let catalogue: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Catalogue/Credit.storekit").path
    }()

    init(dataDirectory: String, arguments: [String] = [], catalogue: String = StoreProcess.catalogue) throws {
        self.dataDirectory = dataDirectory
        process.executableURL = URL(fileURLWithPath: try StoreProcess.binary)
        process.arguments = ["--port", "0", "--data", dataDirectory, "--catalogue", catalogue] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        // The first line says where it listens.
        var line = Data()
        let handle = output.fileHandleForReading
        while !line.contains(0x0A) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: "listening on ") else {
            process.terminate()
            throw StoreFailure("mockstore did not start: \(text)")
        }
        url = String(text[range.upperBound...].prefix { !$0.isWhitespace })
    }

    func stop() {
        guard !stopped else { return }
        stopped = true
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    deinit { stop() }

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

struct StoreFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
