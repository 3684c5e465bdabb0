import MockStoreHTTP
import StoreWire

extension LoopbackClient {
    /// `endpoint` with its path's `parameters`, the raw JSON `body` when there is one, and `headers`.
    func request<Request, Response, Path>(
        _ endpoint: Endpoint<Request, Response, Path>, _ parameters: Path, body: [UInt8]? = nil,
        headers: [HTTPHeader] = []
    ) throws -> HTTPClient.Response {
        try request(endpoint.method.rawValue, endpoint.target(parameters), body: body, headers: headers)
    }

    /// `endpoint`, whose path has no parameters, with the raw JSON `body` when there is one, and `headers`.
    func request<Request, Response>(
        _ endpoint: Endpoint<Request, Response, NoParameters>, body: [UInt8]? = nil, headers: [HTTPHeader] = []
    ) throws -> HTTPClient.Response {
        try request(endpoint, NoParameters(), body: body, headers: headers)
    }

    /// `endpoint`, whose path has no parameters, with `body` as JSON (its fields spelt by its type), and `headers`.
    func request<Request: Encodable, Response>(
        _ endpoint: Endpoint<Request, Response, NoParameters>, json body: Request, headers: [HTTPHeader] = []
    ) throws -> HTTPClient.Response {
        try request(endpoint, NoParameters(), body: try HTTPResponse.encode(body), headers: headers)
    }
}
