import MockStoreHTTP
import StoreWire

extension LoopbackClient {
    /// `endpoint` with its `parameters`, the raw JSON `body` when there is one, and `headers`.
    func request<Request, Response>(
        _ endpoint: Endpoint<Request, Response>, _ parameters: String..., body: [UInt8]? = nil,
        headers: [HTTPHeader] = []
    ) throws -> HTTPClient.Response {
        try request(endpoint.method.rawValue, endpoint.template.path(parameters), body: body, headers: headers)
    }
}
