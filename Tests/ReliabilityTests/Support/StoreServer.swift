import Foundation
import MockStoreTesting
import StoreWire
import TestSupport
import Testing

/// Raw HTTP over TCP to 127.0.0.1, for requests no HTTP library would send.
enum HTTPProbe {
    /// A parsed reply.
    typealias Reply = RawHTTP.Reply

    /// Opens a connection with send and receive timeouts of `timeout` seconds.
    static func connect(port: UInt16, timeout: Double = 10) throws -> Int32 {
        try RawHTTP.connect(port: port, timeout: timeout)
    }

    /// Sends what it can of `bytes` (the server may close early, e.g. on an oversized body).
    @discardableResult
    static func send(_ fd: Int32, _ bytes: [UInt8]) -> Int { RawHTTP.send(fd, bytes) }

    /// Reads until the server closes, the timeout passes, or `limit` bytes came.
    static func receiveAll(_ fd: Int32, limit: Int = 4 << 20) -> [UInt8] { RawHTTP.receiveAll(fd, limit: limit) }

    /// Sends `request` on a new connection (then shuts the sending side) and returns everything sent back before the
    /// server closed.
    static func exchange(_ request: [UInt8], port: UInt16, timeout: Double = 10) throws -> [UInt8] {
        try RawHTTP.exchange(request, port: port, timeout: timeout, halfClose: true)
    }

    /// Status and body of a raw reply, or nil when it is not HTTP.
    static func parse(_ bytes: [UInt8]) -> Reply? { RawHTTP.parse(bytes) }

    /// A well-formed request, `Connection: close`.
    static func request(_ method: String, _ path: String, body: [UInt8]? = nil, headers: [String] = []) -> [UInt8] {
        RawHTTP.request(method, path, body: body, headers: headers)
    }

    static func get(_ path: String, port: UInt16, timeout: Double = 10) throws -> Reply {
        let bytes = try exchange(request("GET", path), port: port, timeout: timeout)
        return try #require(
            parse(bytes), "not an HTTP reply to GET \(path): \(String(decoding: bytes.prefix(200), as: UTF8.self))")
    }

    static func post(_ path: String, json: String, port: UInt16, timeout: Double = 10) throws -> Reply {
        let bytes = try exchange(request("POST", path, body: Array(json.utf8)), port: port, timeout: timeout)
        return try #require(parse(bytes), "not an HTTP reply to POST \(path)")
    }
}

/// The real `mockstore` binary on a free port, with its own data directory. Stopped (SIGTERM) when released.
final class StoreServer {
    let store: LaunchedMockStore
    let home: ScratchDirectory
    var url: String { store.url }
    var port: UInt16 { store.port }

    static var catalogue: String { Repository.catalogue }

    /// The test library's store: typed controls.
    var testStore: TestStore { store.store }

    private init(_ store: LaunchedMockStore, home: ScratchDirectory) {
        self.store = store
        self.home = home
    }

    /// Starts a store with its own data directory and waits until it listens.
    static func start(arguments: [String] = [], catalogue: String = Repository.catalogue) async throws -> StoreServer {
        let home = try ScratchDirectory("mockstore", inMemory: true)
        var env: [String: String] = [:]
        if let path = Reliability.environment["PATH"] { env["PATH"] = path }
        let store = try await LaunchedMockStore.start(
            dataDirectory: home.file("store"), arguments: arguments, catalogue: catalogue, environment: env)
        return StoreServer(store, home: home)
    }

    var isRunning: Bool { store.isRunning }

    func stop() async {
        await store.stop()
    }

    /// The store's test root certificate, saved to `path`.
    func saveRoot(to path: String) throws { try store.saveRoot(to: path) }

    /// Buys at the store directly, as if the app paid and died before recording anything: the signed transaction.
    func purchase(_ product: String = "ai.voicedebrief.app.credit.500") throws -> String {
        try store.purchase(product)
    }

    /// The transactions the store holds unfinished, as signed JWS.
    func unfinished() throws -> [String] { try store.unfinished() }

    /// Whether the store answers a plain products request correctly.
    func answersNormally(timeout: Double = 5) -> Bool {
        guard
            let reply = try? HTTPProbe.get(
                DeviceAPI.products.target(.init(ids: ["ai.voicedebrief.app.credit.500"])), port: port,
                timeout: timeout)
        else {
            return false
        }
        return reply.status == 200 && reply.text.contains("ai.voicedebrief.app.credit.500")
    }
}

/// The transaction id inside a signed transaction (its payload, unverified: for bookkeeping only).
func transactionID(ofSigned jws: String) -> String? {
    let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return nil }
    var text = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while text.count % 4 != 0 { text += "=" }
    guard let data = Data(base64Encoded: text),
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    else { return nil }
    return object["transactionId"] as? String
}
