/// Why `mockstore` could not start (exit status 1): what failed, with the file or directory involved.
public struct StartupError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
