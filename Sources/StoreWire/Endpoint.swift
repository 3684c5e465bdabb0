/// One endpoint of the store's HTTP API, declared once: its method, its path template, and the types of its request
/// body and its answer.
///
/// The catalogues (``DeviceAPI``, ``ServerAPI``, ``SandboxAPI``, and `TestControls` in the StoreTestControls target)
/// hold every endpoint as a static member; the server registers its handlers by endpoint and every client sends
/// through one, so a misspelt endpoint does not compile and a path is written once, in its declaration.
///
/// ```swift
/// let path = ServerAPI.transactionInfo.path(.init(transactionId: "2000000000000001"))
/// // "/inApps/v1/transactions/2000000000000001"
/// ```
///
/// `Path` is the type of the path's parameters (``TransactionPath`` for `{transactionId}`, ``NoParameters`` for
/// none): the client builds the path from one and the store's router decodes one for the handler. `Request` is ``NoBody`` for an endpoint that takes no body; `Response` is ``NoBody`` for one whose answer has none
/// (`202 Accepted`), ``EmptyBody`` for `{}` and ``BinaryBody`` for one that is not JSON (a certificate).
public struct Endpoint<Request: Sendable, Response: Sendable, Path: EndpointParameters>: Sendable,
    CustomStringConvertible
{
    /// The HTTP method.
    public let method: HTTPMethod
    /// The path, with a `{name}` segment for each parameter.
    public let template: PathTemplate
    /// The error codes (``StoreErrorCode``) this endpoint answers with besides those any endpoint may
    /// (``StoreErrorCode/anyEndpoint``). A debug build of the store marks an answer with a code not declared here.
    public let errors: Set<StoreErrorCode>

    /// An endpoint answering `method` at `template` (`/inApps/v1/transactions/{id}`), refusing with `errors`.
    public init(_ method: HTTPMethod, _ template: PathTemplate, errors: Set<StoreErrorCode> = []) {
        self.method = method
        self.template = template
        self.errors = errors
    }

    /// Whether this endpoint may answer with error `code`: one of its own, or one any endpoint may.
    public func declares(error code: StoreErrorCode) -> Bool {
        errors.contains(code) || StoreErrorCode.anyEndpoint.contains(code)
    }

    /// The path with `parameters` in the template's `{…}` segments, each percent-encoded, then its query, if any
    /// (`/storekit/v1/transactions/updates?after=3`).
    public func target(_ parameters: Path) -> String {
        let (path, items) = components(parameters)
        guard !items.isEmpty else { return path }
        return path + "?"
            + items.map { PathTemplate.percentEncoded($0.name) + "=" + PathTemplate.percentEncoded($0.value) }
            .joined(separator: "&")
    }

    /// The path with `parameters` in the template's `{…}` segments (each percent-encoded), and the query's items
    /// apart, for a client that builds its URL from components.
    public func components(_ parameters: Path) -> (path: String, query: [(name: String, value: String)]) {
        (template.path(parameters.pathValues), parameters.queryItems)
    }

    /// The parameters a request's path gave the template's `{…}` segments (percent-decoded), with `query`'s values
    /// by name, when the path is this endpoint's; `nil` when it is not.
    public func parameters(_ pathSegments: [String], query: (String) -> [String] = { _ in [] }) -> Path? {
        template.matchValues(pathSegments).map { Path(pathValues: $0, query: query) }
    }

    /// `GET /inApps/v1/transactions/{id}`.
    public var description: String { method.rawValue + " " + template.description }
}

/// An HTTP method the store's API uses.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case delete = "DELETE"
}

/// No body at all: the request of an endpoint that takes none, or an answer without one (`202 Accepted`).
public struct NoBody: Codable, Sendable, Equatable {
    public init() {}
}

/// The JSON object `{}`: an answer that says only that it succeeded.
public struct EmptyBody: Codable, Sendable, Equatable {
    public init() {}
}

/// An answer that is not JSON, given as its bytes (the store's DER root certificate).
public struct BinaryBody: Sendable, Equatable {
    public var bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }
}

extension StoreErrorCode {
    /// What any endpoint may answer: a request it cannot read (a body, a header, a customer's name), a customer
    /// unknown, a body too large, and the store's own failure.
    public static let anyEndpoint: Set<StoreErrorCode> = [
        generalBadRequest, customerNotFound, notFound, methodNotAllowed, payloadTooLarge, generalInternal,
    ]
}

extension Endpoint where Path: PathOnlyParameters {
    /// The path with `parameters` in the template's `{…}` segments, each percent-encoded.
    public func path(_ parameters: Path) -> String {
        template.path(parameters.pathValues)
    }
}

extension Endpoint where Path: QueryOnlyParameters {
    /// The path, which has no parameters (the query is the caller's to add).
    public func path() -> String { template.path([]) }
}

extension Endpoint where Path == NoParameters {
    /// The path, which has no parameters.
    public func path() -> String { template.path([]) }
}
