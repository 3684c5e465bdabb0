import Foundation
import StoreWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one HTTP path of the store clients (``MockStoreClient``, ``AppStoreServerAPIClient``): URLSession with a
/// request timeout, JSON answers, and an answer outside 2xx turned into ``StoreError`` (with the store's
/// `{errorCode, errorMessage}` when it sent one).
struct StoreHTTP: Sendable {
    let baseURL: URL
    private let session: URLSession

    init(baseURL: URL, timeout: TimeInterval) {
        self.baseURL = baseURL
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        session = URLSession(configuration: configuration)
    }

    /// `path` under the base URL (one slash between them).
    func url(_ path: String) -> URL {
        URL(string: baseURL.absoluteString.trimmingSuffix("/") + path)!
    }

    /// The body of a 2xx answer to `request`. What a request that got no answer at all becomes is the caller's
    /// (`transportFailure`): a purchase that may have gone through is not a page that could not be read.
    func data(for request: URLRequest, transportFailure: (any Error) -> any Error) async throws -> Data {
        let url = request.url ?? baseURL
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw transportFailure(error)
        }
        guard let http = response as? HTTPURLResponse else {
            throw StoreError.noAnswer("\(url.host ?? url.absoluteString) sent no HTTP answer")
        }
        guard (200..<300).contains(http.statusCode) else { throw Self.failure(http.statusCode, data, url) }
        return data
    }

    /// `data` decoded as `Response`.
    static func decode<Response: Decodable>(_ data: Data, _ url: URL) throws -> Response {
        do {
            return try JSONDecoder().decode(Response.self, from: data)
        } catch {
            throw StoreError.systemError("\(url.path) answered with JSON this client cannot read")
        }
    }

    private static func failure(_ status: Int, _ data: Data, _ url: URL) -> StoreError {
        if let error = try? JSONDecoder().decode(StoreErrorBody.self, from: data) {
            return .storeResponse(status: status, code: error.errorCode, message: error.errorMessage)
        }
        return .storeResponse(status: status, code: 0, message: "\(url.path) failed (HTTP status \(status))")
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
