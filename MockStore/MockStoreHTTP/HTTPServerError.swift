/// Why an ``HTTPServer`` could not start.
public struct HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
