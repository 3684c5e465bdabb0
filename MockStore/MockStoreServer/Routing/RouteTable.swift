import Foundation
import MockStoreHTTP
import StoreKitCatalogue
import StoreWire

/// One area's handlers of the store's endpoints (the device API, the Server API, the test controls, ...), each a type
/// of its own that ``MockStoreRouter`` puts together; what they share to make a handler is here.
protocol RouteTable {
    /// The area's handlers, in the order requests are matched against them.
    static var routes: [MockStoreRouter.Route] { get }
}

extension RouteTable {
    typealias Route = MockStoreRouter.Route

    /// The handler of `endpoint` whose answer is the endpoint's JSON `Response`, or the error it throws.
    static func route<Request, Response: Encodable, Path>(
        _ endpoint: Endpoint<Request, Response, Path>,
        _ answer: @escaping @Sendable (MockStore, HTTPRequest, Path) throws -> Response
    ) -> Route {
        Route(endpoint) { store, request, path in respond { try answer(store, request, path) } }
    }

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
        guard !bytes.isEmpty else { throw .invalid(.bodyRequired) }
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch let DecodingError.keyNotFound(key, context) {
            throw .invalid(.missingField(fieldPath(context.codingPath + [key])))
        } catch let DecodingError.typeMismatch(_, context) {
            throw .invalid(.wrongType(field: fieldPath(context.codingPath), detail: context.debugDescription))
        } catch let DecodingError.valueNotFound(_, context) {
            throw .invalid(.nullField(fieldPath(context.codingPath)))
        } catch {
            throw .invalid(.malformedJSON)
        }
    }

    private static func fieldPath(_ codingPath: [any CodingKey]) -> String {
        StoreKitFileReader.path(codingPath)
    }

    /// The handler of a Server API `endpoint` whose answer is its JSON `Response`, checking the bearer token first.
    static func serverRoute<Request, Response: Encodable, Path>(
        _ endpoint: Endpoint<Request, Response, Path>,
        _ answer: @escaping @Sendable (MockStore, HTTPRequest, Path) throws -> Response
    ) -> Route {
        authorized(route(endpoint, answer))
    }

    /// `route`, answering only a request whose bearer token passes ``ServerAPIAuthenticator`` (a 401 without a body
    /// otherwise).
    static func authorized(_ route: Route) -> Route {
        var checked = route
        checked.respond = { store, request, values in
            let authenticator = ServerAPIAuthenticator(
                bundleId: store.configuration.bundleId, keys: store.configuration.apiKeys)
            do {
                try authenticator.check(
                    authorization: request.header("Authorization"), now: store.realClock.now())
            } catch {
                return HTTPResponse(status: 401)
            }
            return route.respond(store, request, values)
        }
        return checked
    }

    /// The handler of an `endpoint` that answers without a body: `status` (202 Accepted, as Send Consumption
    /// Information answers, or 200) when `perform` succeeds, else its error.
    static func accepted<Request, Path>(
        _ endpoint: Endpoint<Request, NoBody, Path>, status: Int = 202,
        _ perform: @escaping @Sendable (MockStore, HTTPRequest, Path) throws -> Void
    ) -> Route {
        Route(endpoint) { store, request, path in
            var response = accepted { try perform(store, request, path) }
            if response.status == 202 { response.status = status }
            return response
        }
    }

    /// 202 Accepted with an empty body (Send Consumption Information), or the error.
    static func accepted(_ body: () throws -> Void) -> HTTPResponse {
        do {
            try body()
            return HTTPResponse(status: 202)
        } catch let error as MockStoreError {
            return error.response
        } catch {
            return MockStoreError.internalError(error).response
        }
    }
}
