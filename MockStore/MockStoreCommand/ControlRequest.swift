import MockStoreHTTP
import StoreWire

/// The request of one `mockstore control` command: a declared endpoint with its typed parameters (path and query),
/// and its JSON body.
struct ControlRequest: Equatable, Sendable {
    var method: String
    /// The request's target: the path with the parameters in it, then the query, if any.
    var target: String
    /// The JSON body, if the control takes one.
    var body: [UInt8]?

    /// `endpoint`, whose path has no parameters, with no body.
    init<Response>(_ endpoint: Endpoint<NoBody, Response, NoParameters>) {
        self.init(endpoint, NoParameters())
    }

    /// `endpoint` with its `parameters` and no body.
    init<Response, Path>(_ endpoint: Endpoint<NoBody, Response, Path>, _ parameters: Path) {
        method = endpoint.method.rawValue
        target = endpoint.target(parameters)
        body = nil
    }

    /// `endpoint`, whose path has no parameters, with `body`, as JSON.
    init<Request: Encodable, Response>(_ endpoint: Endpoint<Request, Response, NoParameters>, body: Request) {
        self.init(endpoint, NoParameters(), body: body)
    }

    /// `endpoint` with its `parameters` and `body`, as JSON.
    init<Request: Encodable, Response, Path>(
        _ endpoint: Endpoint<Request, Response, Path>, _ parameters: Path, body: Request
    ) {
        method = endpoint.method.rawValue
        target = endpoint.target(parameters)
        self.body = (try? HTTPResponse.encode(body)) ?? Array("{}".utf8)
    }
}
