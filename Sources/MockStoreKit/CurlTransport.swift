import Dispatch
import Foundation
import MockStoreHTTP
internal import StoreTransport
import Synchronization

/// The device's requests to the mock store over libcurl, each connection kept open between requests (as a phone keeps
/// its connection to the App Store): far lighter than URLSession, whose queues cost the device more than the store's
/// own work. A request runs on a thread of its own from the dispatch pool, never one of Swift's cooperative pool,
/// with a whole-request deadline and a bounded body; its failures are the store clients' ``StoreError``.
final class CurlTransport: Sendable {
    private let baseURL: URL
    private let deadline: TimeInterval
    private let bodyLimit: Int
    private let headers: [HTTPHeader]
    /// Connections not in use, kept for the next request.
    private let idle = Mutex<[ConnectionBox]>([])

    init(baseURL: URL, timeout: TimeInterval, bodyLimit: Int = 16 << 20, headers: [String: String]) {
        self.baseURL = baseURL
        deadline = timeout
        self.bodyLimit = bodyLimit
        self.headers = headers.sorted { $0.key < $1.key }.map { HTTPHeader($0.key, $0.value) }
    }

    /// The body of a 2xx answer to `method` `path` (with `query` and `body`), or the ``StoreError`` saying why not.
    func send(_ method: String, _ path: String, query: [URLQueryItem], body: Data?) async throws -> Data {
        let url = Self.url(baseURL, path, query)
        let box: ConnectionBox
        switch takeConnection() {
        case .success(let connection): box = connection
        case .failure(let failure): throw Self.storeError(failure, url: url, seconds: deadline)
        }
        let answer: Result<HTTPClient.Response, HTTPClient.Failure> = await withCheckedContinuation { done in
            box.queue.async { done.resume(returning: self.perform(method, url, body, on: box)) }
        }
        switch answer {
        case .failure(let failure): throw Self.storeError(failure, url: url, seconds: deadline)
        case .success(let response) where response.isBodyCut:
            throw StoreError.answerTooLarge(place: TransportFailure.place(of: url), limit: bodyLimit)
        case .success(let response) where !(200..<300).contains(response.status):
            throw StoreHTTP.failure(response.status, Data(response.body), url)
        case .success(let response): return Data(response.body)
        }
    }

    /// An idle connection of the pool, or a new one when none is idle.
    private func takeConnection() -> Result<ConnectionBox, HTTPClient.Failure> {
        if let kept = idle.withLock({ $0.popLast() }) { return .success(kept) }
        return Result { () throws(HTTPClient.Failure) in ConnectionBox(try HTTPConnection()) }
    }

    /// One request on `box`'s connection, given back to the pool after.
    private func perform(_ method: String, _ url: URL, _ body: Data?, on box: ConnectionBox)
        -> Result<HTTPClient.Response, HTTPClient.Failure>
    {
        var lines = headers
        if body != nil { lines.append(HTTPHeader("Content-Type", "application/json")) }
        let result = Result { () throws(HTTPClient.Failure) in
            try box.connection.send(
                method, url.absoluteString, headers: lines, body: body.map { Array($0) } ?? [], timeout: deadline,
                maxBodyBytes: bodyLimit)
        }
        idle.withLock { $0.append(box) }
        return result
    }

    /// `path` under `base`, with `query` (none: no query string).
    private static func url(_ base: URL, _ path: String, _ query: [URLQueryItem]) -> URL {
        let text = base.absoluteString
        let joined = URL(string: (text.hasSuffix("/") ? String(text.dropLast()) : text) + path)!
        guard !query.isEmpty, var components = URLComponents(url: joined, resolvingAgainstBaseURL: false) else {
            return joined
        }
        components.queryItems = query
        return components.url ?? joined
    }

    /// libcurl's failure in the store clients' words (``TransportFailure``'s, for the URL error it stands for):
    /// whether the request may have reached the store, and where. libcurl's timeout covers the whole request, so a
    /// timeout is an answer that did not come whole.
    static func storeError(_ failure: HTTPClient.Failure, url: URL, seconds: TimeInterval) -> StoreError {
        let code: URLError.Code
        switch failure.kind {
        case .timedOut: return .answerTooSlow(place: TransportFailure.place(of: url), seconds: seconds)
        case .socketIssue: code = .cannotConnectToHost
        case .invalidURL: code = .badURL
        case .sslIssue: code = .secureConnectionFailed
        case .noResponse, .prematureClose: code = .networkConnectionLost
        case .invalidResponse: code = .cannotParseResponse
        case .other: code = .unknown
        }
        return TransportFailure.storeError(URLError(code), url: url, timeout: seconds)
    }
}

/// A libcurl connection, used by one request at a time (the pool hands it to one request, then takes it back), with
/// the serial queue its requests run on. A serial queue has a thread of its own when it has work (libdispatch's
/// overcommit pool): the requests in flight are not capped at the cores, as on a shared concurrent queue, where they
/// waited for one another while each blocked in libcurl and the store had fewer requests to commit together.
private final class ConnectionBox: @unchecked Sendable {
    let connection: HTTPConnection
    let queue = DispatchQueue(label: "MockStoreKit.connection")
    init(_ connection: HTTPConnection) { self.connection = connection }
}
