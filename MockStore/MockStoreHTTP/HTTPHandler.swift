/// What an ``HTTPServer`` calls for each request, on the thread of the request's connection: concurrently for
/// requests on different connections.
public protocol HTTPHandler: Sendable {
    /// The response to a complete request. It may wait (for a database commit, say): only its own connection
    /// waits with it.
    func respond(to request: HTTPRequest) -> HTTPResponse

    /// The response to a request whose body is larger than `limit` bytes (the server stops reading it).
    func payloadTooLarge(limit: Int) -> HTTPResponse
}
