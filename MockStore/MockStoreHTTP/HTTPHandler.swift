import StoreWire

/// What an ``HTTPServer`` calls for each request, on the thread of the request's connection: concurrently for
/// requests on different connections.
public protocol HTTPHandler: Sendable {
    /// The response to a complete request. It may wait (for a database commit, say): only its own connection
    /// waits with it.
    func respond(to request: HTTPRequest) -> HTTPResponse

    /// The response to a request whose body is larger than `limit` bytes (the server stops reading it).
    func payloadTooLarge(limit: Int) -> HTTPResponse

    /// The answer to a request that did not arrive whole within `seconds` of its request line (the connection is
    /// closed after it).
    func requestTimeout(seconds: Double) -> HTTPResponse
}

extension HTTPHandler {
    /// `408 Request Timeout` with the store's error body.
    public func requestTimeout(seconds: Double) -> HTTPResponse {
        HTTPResponse.error(
            status: 408, code: StoreErrorCode.requestTimeout,
            message: "The request did not arrive whole within \(HTTPResponse.seconds(seconds)) seconds.")
    }
}
