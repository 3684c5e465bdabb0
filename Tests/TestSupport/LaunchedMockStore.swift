import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real `mockstore` binary, started on a free port (`--port 0`) with its own data directory, once it has said
/// where it listens. Stopped by ``stop(signal:timeout:)``, or, failing that, with SIGTERM (then SIGKILL) when
/// released. The suites' own store types add their HTTP on top of it.
public final class LaunchedMockStore {
    public let child: ChildProcess
    public let dataDirectory: String
    /// `http://127.0.0.1:PORT`, from the listening line.
    public let url: String
    public let port: UInt16
    private var stopped = false

    /// Starts `mockstore --port 0 --data dataDirectory --catalogue catalogue arguments` with exactly `environment`,
    /// and waits (up to `timeout` seconds) for its `mockstore listening on URL` line on standard output.
    public init(
        dataDirectory: String, arguments: [String] = [], catalogue: String = Repository.catalogue,
        environment: [String: String] = ProcessInfo.processInfo.environment, timeout: TimeInterval = 30
    ) throws {
        self.dataDirectory = dataDirectory
        let child = try ChildProcess(
            try Binaries.require("mockstore"),
            // It stops when this test process goes: a runner that dies leaves no store listening.
            ["--port", "0", "--data", dataDirectory, "--catalogue", catalogue, "--exit-with-parent"] + arguments,
            environment: environment)
        var found: (url: String, port: UInt16)?
        waitUntil(timeout: timeout, pollEvery: 0.01) {
            found = Self.listeningAddress(in: child.stdoutSoFar)
            return found != nil || child.hasExited
        }
        guard let found else {
            child.send(SIGKILL)
            throw SupportFailure("mockstore did not start: \(child.wait(timeout: 5))")
        }
        self.child = child
        url = found.url
        port = found.port
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

    /// Whether the process is still running (it must survive bad requests).
    public var isRunning: Bool { !child.hasExited }

    /// What the store wrote to standard error so far.
    public var stderr: String { child.stderrSoFar }

    /// Sends `signal` and waits (up to `timeout` seconds, then SIGKILL and a thrown error) for its exit status.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, timeout: TimeInterval = 20) throws -> Int32 {
        stopped = true
        child.send(signal)
        let result = child.wait(timeout: timeout)
        if result.timedOut {
            throw SupportFailure("mockstore did not stop within \(timeout) s of signal \(signal); killed")
        }
        return result.status
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
        let reply = try get("/test/v1/root-certificate")
        guard reply.status == 200 else { throw SupportFailure("no root certificate: \(reply.status) \(reply.text)") }
        try Data(reply.body).write(to: URL(fileURLWithPath: path))
    }

    /// Buys at the store directly, as if the app paid and stopped before recording anything: the signed transaction.
    public func purchase(_ product: String = "ai.voicedebrief.app.credit.500") throws -> String {
        let reply = try post("/storekit/v1/purchases", json: #"{"productId":"\#(product)"}"#)
        guard let signed = Self.jsonObject(reply)?["signedTransaction"] as? String else {
            throw SupportFailure("no signed transaction: \(reply.status) \(reply.text)")
        }
        return signed
    }

    /// The transactions the store holds unfinished, as signed JWS.
    public func unfinished() throws -> [String] {
        let reply = try get("/storekit/v1/transactions/unfinished")
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

    deinit {
        if !stopped { _ = try? stop(timeout: 10) }
    }
}
