import Foundation
import MockStoreHTTP
import StoreKitCatalogue
import StoreWire

/// Maps HTTP requests to the ``MockStore``'s calls and their results to HTTP responses.
///
/// Routing is a pure function of the request (plus the store's state), so it is tested without a socket. The
/// router holds nothing mutable: the server calls it from many threads at once.
/// Every failure is `{"errorCode", "errorMessage"}` with `Content-Type: application/json`; nothing a client
/// sends can make it throw or trap.
public struct MockStoreRouter: HTTPHandler {
    /// One endpoint's handler: the endpoint's method and path template, and what answers it.
    struct Route: Sendable {
        var method: String
        var template: PathTemplate
        /// Whether the endpoint declares error code `code` (``Endpoint/declares(error:)``).
        var declares: @Sendable (StoreErrorCode) -> Bool
        /// Answers a request whose path matched, given the values of the template's parameters, in order.
        var respond: @Sendable (MockStore, HTTPRequest, [String]) -> HTTPResponse

        /// The handler of `endpoint`: `respond` gets the store, the request and its path's and query's parameters,
        /// typed.
        init<Request, Response, Path>(
            _ endpoint: Endpoint<Request, Response, Path>,
            respond: @escaping @Sendable (MockStore, HTTPRequest, Path) -> HTTPResponse
        ) {
            method = endpoint.method.rawValue
            template = endpoint.template
            declares = { endpoint.declares(error: $0) }
            self.respond = { store, request, values in
                respond(store, request, Path(pathValues: values, query: { request.queryValues($0) }))
            }
        }

        /// The values of the template's parameters, in order, when `segments` matches it.
        func match(_ segments: [String]) -> [String]? {
            template.matchValues(segments)
        }
    }

    public let store: MockStore
    let routes: [Route]
    /// The routes a path may match (``RouteIndex``), by their positions in `routes`.
    let index: RouteIndex

    public init(store: MockStore) {
        self.store = store
        self.routes = Self.allRoutes
        self.index = Self.allRoutesIndex
    }

    /// Every handler, in the order requests are matched against them (which decides a 405's `Allow` list).
    static let allRoutes: [Route] =
        DeviceRoutes.routes + ControlRoutes.routes + ServerAPIRoutes.routes + SubscriptionRoutes.routes
        + BillingRoutes.routes + ExtensionRoutes.routes + OfferRoutes.routes + CustomerRoutes.routes
        + ConsoleRoutes.routes

    static let allRoutesIndex = RouteIndex(allRoutes.map(\.template))

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        // Renewals and expiries that fell due on the virtual clock are the store's timer's, in batches, so no
        // request waits for a wave of them (a request reading subscriptions makes its own due first). Without a
        // timer (a store in a test's process) a request makes one batch of them before it is answered.
        if !store.subscriptionRuntime.hasTimer { store.subscriptions.runDueSubscriptionEvents(batches: 1) }
        let segments = Self.segments(of: request.path)
        let matching = index.candidates(for: segments).compactMap { position in
            routes[position].match(segments).map { (routes[position], $0) }
        }
        guard !matching.isEmpty else {
            return MockStoreError.noSuchEndpoint(path: request.path).response
        }
        // HEAD is GET without the body (libmicrohttpd leaves the body out).
        let method = request.method == "HEAD" ? "GET" : request.method
        guard let (route, values) = matching.first(where: { $0.0.method == method }) else {
            var response = MockStoreError.methodNotAllowed(
                method: request.method, path: request.path, allowed: matching.map(\.0.method)
            ).response
            response.headers.append(HTTPHeader("Allow", matching.map(\.0.method).joined(separator: ", ")))
            return response
        }
        let customer: String?
        do throws(MockStoreError) {
            customer = try CustomerRoutes.customerName(for: request, segments: segments)
        } catch {
            return error.response
        }
        let response = CustomerScope.$name.withValue(customer) { route.respond(store, request, values) }
        #if DEBUG
            return Self.markedIfUndeclared(response, by: route)
        #else
            return response
        #endif
    }

    /// The header a debug build adds to an error answer whose code the endpoint does not declare, naming the code:
    /// the tests' clients fail on it, so the declared contract keeps up with the store.
    public static let undeclaredErrorHeader = "X-Mock-Undeclared-Error"

    /// `response`, with ``undeclaredErrorHeader`` when it is an error whose code `route`'s endpoint does not declare.
    static func markedIfUndeclared(_ response: HTTPResponse, by route: Route) -> HTTPResponse {
        guard response.status >= 400, !response.body.isEmpty,
            let error = try? JSONDecoder().decode(StoreErrorBody.self, from: Data(response.body)),
            !route.declares(error.errorCode)
        else { return response }
        var marked = response
        marked.headers.append(HTTPHeader(undeclaredErrorHeader, "\(error.errorCode)"))
        return marked
    }

    public func payloadTooLarge(limit: Int) -> HTTPResponse {
        MockStoreError.payloadTooLarge(limit: limit).response
    }

    /// `/a/b/` → `["a", "b", ""]`: a trailing slash is a different path, as on Apple's servers.
    static func segments(of path: String) -> [String] {
        var parts: [String]
        if path.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII (every path a client of ours sends): split at the byte. Splitting the characters (grapheme
            // breaking) cost a catalogue request more than its lookup.
            parts = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map {
                String(Substring($0))
            }
        } else {
            // A slash followed by a combining mark is one character, not a slash: split as characters.
            parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        }
        if parts.first == "" { parts.removeFirst() }
        return parts
    }
}
