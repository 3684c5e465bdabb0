/// An HTTP request as the server hands it to a handler: the whole body has been read.
public struct HTTPRequest: Equatable, Sendable {
    /// One query-string argument; `value` is `nil` for a bare `?flag`.
    public struct QueryItem: Equatable, Sendable {
        public var name: String
        public var value: String?

        public init(_ name: String, _ value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// e.g. `GET`, exactly as sent.
    public var method: String
    /// The path, percent-decoded, without the query string, e.g. `/storekit/v1/products`.
    public var path: String
    /// Query arguments, decoded, in order (a name may repeat).
    public var query: [QueryItem]
    public var headers: [HTTPHeader]
    public var body: [UInt8]

    public init(
        method: String, path: String, query: [QueryItem] = [], headers: [HTTPHeader] = [], body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// Every value given for the query argument `name`.
    public func queryValues(_ name: String) -> [String] {
        query.filter { $0.name == name }.map { $0.value ?? "" }
    }

    /// The first header called `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }
}
