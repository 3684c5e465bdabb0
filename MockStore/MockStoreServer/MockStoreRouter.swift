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
        var declares: @Sendable (Int) -> Bool
        var respond: @Sendable (MockStore, HTTPRequest, PathParameters) -> HTTPResponse

        /// The handler of `endpoint`: `respond` gets the store, the request and the template's parameters.
        init<Request, Response>(
            _ endpoint: Endpoint<Request, Response>,
            respond: @escaping @Sendable (MockStore, HTTPRequest, PathParameters) -> HTTPResponse
        ) {
            method = endpoint.method.rawValue
            template = endpoint.template
            declares = { endpoint.declares(error: $0) }
            self.respond = respond
        }

        /// The captured parameters when `segments` matches the template.
        func match(_ segments: [String]) -> PathParameters? {
            template.match(segments).map { PathParameters(template: template, values: $0) }
        }
    }

    /// The handler of `endpoint` whose answer is the endpoint's JSON `Response`, or the error it throws.
    static func route<Request, Response: Encodable>(
        _ endpoint: Endpoint<Request, Response>,
        _ answer: @escaping @Sendable (MockStore, HTTPRequest, PathParameters) throws -> Response
    ) -> Route {
        Route(endpoint) { store, request, captures in respond { try answer(store, request, captures) } }
    }

    public let store: MockStore
    let routes: [Route]

    public init(store: MockStore) {
        self.store = store
        self.routes =
            Self.deviceRoutes + Self.testRoutes + Self.controlRoutes + Self.serverRoutes + Self.subscriptionRoutes
            + Self.billingRoutes + Self.extensionRoutes + Self.offerRoutes + Self.customerRoutes
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        // Renewals and expiries that fell due on the virtual clock happen before anything is answered.
        store.runDueSubscriptionEvents()
        let segments = Self.segments(of: request.path)
        let matching = routes.compactMap { route in route.match(segments).map { (route, $0) } }
        guard !matching.isEmpty else {
            return MockStoreError.notFound(request.path).response
        }
        // HEAD is GET without the body (libmicrohttpd leaves the body out).
        let method = request.method == "HEAD" ? "GET" : request.method
        guard let (route, captures) = matching.first(where: { $0.0.method == method }) else {
            var response = MockStoreError.methodNotAllowed(
                request.method, request.path, allowed: matching.map(\.0.method)
            ).response
            response.headers.append(HTTPHeader("Allow", matching.map(\.0.method).joined(separator: ", ")))
            return response
        }
        let customer: String?
        do throws(MockStoreError) {
            customer = try Self.customerName(for: request, segments: segments)
        } catch {
            return error.response
        }
        let response = CustomerScope.$name.withValue(customer) { route.respond(store, request, captures) }
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

    // MARK: Routes

    /// What StoreKit does on a phone, under `/storekit/v1/`.
    static let deviceRoutes: [Route] = [
        Route(DeviceAPI.products) { store, request, _ in
            // `ids=A,B`, and also `ids=A&ids=B`; blanks between commas are ignored.
            let ids = request.queryValues("ids").flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            do throws(MockStoreError) {
                return HTTPResponse(
                    status: 200, headers: [HTTPHeader("Content-Type", HTTPResponse.jsonContentType)],
                    body: try store.productsBody(ids: ids))
            } catch {
                return error.response
            }
        },
        route(DeviceAPI.purchase) { store, request, _ in
            let device = try device(request)
            return try store.purchase(try decode(PurchaseRequestBody.self, from: request.body), device: device)
        },
        route(DeviceAPI.purchaseStatus) { store, _, captures in
            try store.purchaseStatus(transactionId: captures["transactionId"])
        },
        route(DeviceAPI.unfinished) { store, request, _ in
            SignedTransactionsBody(signedTransactions: try store.unfinishedTransactions(device: try device(request)))
        },
        route(DeviceAPI.updates) { store, request, _ in
            try store.updates(after: request.queryValues("after").first, device: try device(request))
        },
        route(DeviceAPI.appTransaction) { store, request, _ in
            try store.deviceAppTransaction(device: try device(request))
        },
        route(DeviceAPI.finish) { store, _, captures in
            try store.finish(transactionId: captures["transactionId"])
            return EmptyBody()
        },
    ]

    /// What SKTestSession does, under `/test/v1/`.
    static let testRoutes: [Route] = [
        Route(SandboxAPI.rootCertificate) { store, _, _ in
            guard let der = store.rootCertificateDER else {
                return MockStoreError(
                    status: 404, code: StoreErrorCode.notFound,
                    message: "This store has no test root certificate."
                ).response
            }
            return HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/pkix-cert")], body: der)
        }
    ]

    // MARK: Helpers

    /// The device a device-API request names (``DeviceVerification/headerName``), or the default one.
    static func device(_ request: HTTPRequest) throws(MockStoreError) -> DeviceVerification {
        try DeviceVerification.from(header: request.header(DeviceVerification.headerName))
    }

    /// A JSON body, or `fallback` when the request has none (controls whose body is optional).
    static func decodeOptional<Body: Decodable>(
        _ type: Body.Type, from bytes: [UInt8], fallback: Body
    ) throws(MockStoreError) -> Body {
        let isBlank = bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        return isBlank ? fallback : try decode(type, from: bytes)
    }

    /// The JSON of `body()`, or the error it throws as an error response.
    static func respond<Body: Encodable>(_ body: () throws -> Body) -> HTTPResponse {
        do {
            return .json(try body())
        } catch let error as MockStoreError {
            return error.response
        } catch {
            return MockStoreError.internalError(error).response
        }
    }

    /// Decodes a JSON request body, turning every way it can be wrong into a 400 that says how.
    static func decode<Body: Decodable>(_ type: Body.Type, from bytes: [UInt8]) throws(MockStoreError) -> Body {
        guard !bytes.isEmpty else { throw .badRequest("A JSON request body is required.") }
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch let DecodingError.keyNotFound(key, context) {
            throw .badRequest("Missing field \"\(fieldPath(context.codingPath + [key]))\".")
        } catch let DecodingError.typeMismatch(_, context) {
            throw .badRequest("Wrong type for \"\(fieldPath(context.codingPath))\": \(context.debugDescription)")
        } catch let DecodingError.valueNotFound(_, context) {
            throw .badRequest("Field \"\(fieldPath(context.codingPath))\" must not be null.")
        } catch {
            throw .badRequest("Malformed JSON body.")
        }
    }

    private static func fieldPath(_ codingPath: [any CodingKey]) -> String {
        StoreKitFileReader.path(codingPath)
    }

    /// `/a/b/` → `["a", "b", ""]`: a trailing slash is a different path, as on Apple's servers.
    static func segments(of path: String) -> [String] {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.first == "" { parts.removeFirst() }
        return parts
    }
}
