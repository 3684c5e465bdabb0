/// What an ``HTTPServer`` calls for each request, on one of the server's threads.
public protocol HTTPHandler: Sendable {
    /// The response to a complete request. It must not block for long: the server answers other
    /// connections on the same thread.
    func respond(to request: HTTPRequest) -> HTTPResponse

    /// The response to a request whose body is larger than `limit` bytes (the server stops reading it).
    func payloadTooLarge(limit: Int) -> HTTPResponse
}
