import Foundation
import Payments
import StoreTransport
import StoreWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A typed client of a test store's App Store Server API (``TestStore/serverAPI``): one call per endpoint the store
/// serves (``StoreWire/ServerAPI``), Apple's request and answer types, each request with a fresh bearer token (an
/// ES256 JWT as Apple wants: `kid`, `iss`, `iat`, `exp`, `aud` `appstoreconnect-v1`, `bid`) signed by the key the
/// store was started with, and refusals thrown as ``ServerAPIError`` with Apple's error code as a typed case.
///
/// ```swift
/// let info = try await store.serverAPI.transactionInfo(bought.transaction.transactionId)
/// let history = try await store.serverAPI.transactionHistory(id, TransactionHistoryQuery(sort: .descending))
/// ```
///
/// The signed transactions in its answers are Apple's JWS as the store signed them, not verified here: pin the store's
/// root (``TestStore/rootCertificate()``) where your server verifies them.
public struct ServerAPIClient: Sendable {
    /// The store's address.
    public let baseURL: URL
    private let token: ServerAPIToken
    private let http: StoreHTTP

    /// A client of the store at `baseURL` through `http` (the test store's own, so its connection is shared).
    init(baseURL: URL, token: ServerAPIToken, http: StoreHTTP) {
        self.baseURL = baseURL
        self.token = token
        self.http = http
    }

    /// Sends `endpoint` with its `parameters` (its path's and its query's) and `body` (JSON, when not `NoBody`), and
    /// decodes its answer (none for `NoBody`).
    func send<Request: Encodable & Sendable, Answer: Decodable & Sendable, Path>(
        _ endpoint: Endpoint<Request, Answer, Path>, _ parameters: Path, body: Request
    ) async throws(ServerAPIError) -> Answer {
        let request = try self.request(endpoint, parameters, body: body)
        let name = "\(endpoint.method.rawValue) \(request.url?.path ?? endpoint.template.description)"
        let data: Data
        let status: Int
        do {
            (data, status) = try await http.answer(to: request) { $0 }
        } catch {
            throw .unreachable(request: name, why: error.localizedDescription)
        }
        guard (200..<300).contains(status) else { throw Self.refusal(status, data) }
        if Answer.self == NoBody.self, let none = NoBody() as? Answer { return none }
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw .unreadableAnswer(request: name, why: "\(error)")
        }
    }

    private func request<Request: Encodable, Path>(
        _ endpoint: Endpoint<Request, some Any, Path>, _ parameters: Path, body: Request
    ) throws(ServerAPIError) -> URLRequest {
        let name = "\(endpoint.method.rawValue) \(endpoint.template.description)"
        let base =
            baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        let (path, items) = endpoint.components(parameters)
        guard var components = URLComponents(string: base + path) else {
            throw .unreachable(request: name, why: "its path is not a URL")
        }
        let query = items.map { URLQueryItem(name: $0.name, value: $0.value) }
        if !query.isEmpty { components.queryItems = query }
        guard let url = components.url else { throw .unreachable(request: name, why: "its query is not a URL") }
        var request = URLRequest(url: url)
        request.httpMethod = endpoint.method.rawValue
        request.timeoutInterval = 30
        do {
            request.setValue("Bearer " + (try token.make()), forHTTPHeaderField: "Authorization")
            if !(body is NoBody) {
                request.httpBody = try JSONEncoder().encode(body)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
        } catch {
            throw .unreachable(request: name, why: "its token or body could not be made: \(error)")
        }
        return request
    }

    /// The error of a refusal: Apple's code when the body has one.
    private static func refusal(_ status: Int, _ data: Data) -> ServerAPIError {
        if status == 401, data.isEmpty { return .unauthorized }
        guard let body = try? JSONDecoder().decode(StoreErrorBody.self, from: data) else {
            return .unexpectedStatus(status, body: String(decoding: data.prefix(500), as: UTF8.self))
        }
        return .refused(body.errorCode, status: status, message: body.errorMessage)
    }
}
