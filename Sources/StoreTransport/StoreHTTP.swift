import Foundation
import StoreWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HTTP path of the app's store clients (Payments' `AppStoreServerAPIClient`): URLSession with a deadline for
/// the whole request and a limit on the answer's body, JSON answers, and an answer outside 2xx turned
/// into ``StoreError`` (with the store's `{errorCode, errorMessage}` when it sent one).
///
/// The deadline covers connecting, the header and the body together: URLSession's request timeout on Linux is an
/// idle timeout, which a store sending a byte a second never trips. The body is read piece by piece and refused as
/// soon as it passes the limit, so a huge answer never grows the process.
package struct StoreHTTP: Sendable {
    /// The most of an answer's body a store client reads: 16 MiB, far above any answer of the device API or the
    /// Server API (a history page holds 20 signed transactions, a few KiB each).
    package static let defaultBodyLimit = 16 << 20

    package let baseURL: URL
    /// Seconds a request may take, whole.
    package let deadline: TimeInterval
    /// Bytes of body read at most.
    package let bodyLimit: Int
    private let session: URLSession
    private let delegate: StoreSessionDelegate

    package init(baseURL: URL, timeout: TimeInterval, bodyLimit: Int = StoreHTTP.defaultBodyLimit) {
        self.baseURL = baseURL
        deadline = timeout
        self.bodyLimit = bodyLimit
        let configuration = URLSessionConfiguration.ephemeral
        // Backstops a second after the client's own deadline, which comes first with its own words: a silence as
        // long as the whole deadline has passed the deadline already. Foundation on Linux acts on the first (an idle
        // timeout) and keeps the second without acting on it; the deadline there is StoreSessionDelegate's.
        configuration.timeoutIntervalForRequest = timeout + 1
        configuration.timeoutIntervalForResource = timeout + 1
        configuration.urlCache = nil
        delegate = StoreSessionDelegate()
        session = URLSession(
            configuration: configuration, delegate: delegate, delegateQueue: StoreSessionDelegate.queue())
    }

    /// Lets the session go once its requests have ended: a session with a delegate lives until it is invalidated.
    package func invalidate() {
        session.finishTasksAndInvalidate()
    }

    /// `path` under the base URL (one slash between them).
    package func url(_ path: String) -> URL {
        let base = baseURL.absoluteString
        return URL(string: (base.hasSuffix("/") ? String(base.dropLast()) : base) + path)!
    }

    /// The request of `endpoint`: its method, its path and query with `parameters` under the base URL, and `body`
    /// (JSON) when there is one. What both store clients send.
    package func request<Request, Response, Parameters>(
        _ endpoint: Endpoint<Request, Response, Parameters>, _ parameters: Parameters, body: Data? = nil
    ) -> URLRequest {
        let (path, items) = endpoint.components(parameters)
        let query = items.map { URLQueryItem(name: $0.name, value: $0.value) }
        var request = URLRequest(url: url(path, query: query))
        request.httpMethod = endpoint.method.rawValue
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    /// `path` under the base URL with the query `items` (none: no query string).
    package func url(_ path: String, query items: [URLQueryItem]) -> URL {
        guard !items.isEmpty else { return url(path) }
        var components = URLComponents(url: url(path), resolvingAgainstBaseURL: false)!
        components.queryItems = items
        return components.url!
    }

    /// The body of a 2xx answer to `request`. What a request that got no answer at all becomes is the caller's
    /// (`transportFailure`): a purchase that may have gone through is not a page that could not be read. A request
    /// cut off at the deadline or the body limit is ``StoreError/answerTooSlow(place:seconds:)`` or
    /// ``StoreError/answerTooLarge(place:limit:)``.
    package func data(for request: URLRequest, transportFailure: (any Error) -> any Error) async throws -> Data {
        let (data, status) = try await answer(to: request, transportFailure: transportFailure)
        guard (200..<300).contains(status) else { throw Self.failure(status, data, request.url ?? baseURL) }
        return data
    }

    /// The body and the HTTP status of the answer to `request`, whatever the status, read within the deadline and
    /// the body limit (else ``StoreError/answerTooSlow(place:seconds:)`` or ``StoreError/answerTooLarge(place:limit:)``);
    /// no answer at all is `transportFailure`'s. For a client that reads a refusal's body its own way.
    package func answer(to request: URLRequest, transportFailure: (any Error) -> any Error) async throws -> (Data, Int)
    {
        let url = request.url ?? baseURL
        switch await delegate.run(request, in: session, deadline: deadline, limit: bodyLimit) {
        case .answered(let response, let body):
            guard let http = response as? HTTPURLResponse else {
                throw StoreError.noAnswer("\(url.host ?? url.absoluteString) sent no HTTP answer")
            }
            return (body, http.statusCode)
        case .cut(.deadline): throw StoreError.answerTooSlow(place: TransportFailure.place(of: url), seconds: deadline)
        case .cut(.tooLarge): throw StoreError.answerTooLarge(place: TransportFailure.place(of: url), limit: bodyLimit)
        case .failed(let error): throw transportFailure(error)
        }
    }

    /// `data` decoded as `Response`.
    package static func decode<Response: Decodable>(_ data: Data, _ url: @autoclosure () -> URL) throws -> Response {
        do {
            return try JSONDecoder().decode(Response.self, from: data)
        } catch {
            throw StoreError.systemError("\(url().path) answered with JSON this client cannot read")
        }
    }

    package static func failure(_ status: Int, _ data: Data, _ url: URL) -> StoreError {
        // A StoreKit error the store was told to simulate: thrown as StoreKit would throw it.
        if let simulated = try? JSONDecoder().decode(SimulatedErrorBody.self, from: data) {
            return .simulated(storeKitError: simulated.storeKitError)
        }
        if let error = try? JSONDecoder().decode(StoreErrorBody.self, from: data) {
            return .storeResponse(status: status, code: error.errorCode, message: error.errorMessage)
        }
        return .storeResponse(
            status: status, code: .unrecognized(0), message: "\(url.path) failed (HTTP status \(status))")
    }
}
