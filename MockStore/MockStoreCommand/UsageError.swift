/// A command line `mockstore` cannot run with: the process says what is wrong and exits with 64.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
