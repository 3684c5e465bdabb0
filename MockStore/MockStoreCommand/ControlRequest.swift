import MockStoreHTTP
import StoreWire

/// The request of one `mockstore control` command: a declared endpoint with its parameters, and its JSON body.
struct ControlRequest: Equatable, Sendable {
    var method: String
    var path: String
    /// The JSON body, if the control takes one.
    var body: [UInt8]?

    /// `endpoint` with its `parameters` and no body.
    init<Response, Path>(_ endpoint: Endpoint<NoBody, Response, Path>, _ parameters: String...) {
        method = endpoint.method.rawValue
        path = endpoint.template.path(parameters)
        body = nil
    }

    /// `endpoint` with its `parameters` and `body`, as JSON.
    init<Request: Encodable, Response, Path>(
        _ endpoint: Endpoint<Request, Response, Path>, _ parameters: String..., body: Request
    ) {
        method = endpoint.method.rawValue
        path = endpoint.template.path(parameters)
        self.body = (try? HTTPResponse.encode(body)) ?? Array("{}".utf8)
    }
}
