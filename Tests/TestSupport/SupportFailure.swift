/// A failure of the test-support code itself (a directory not made, a binary not built, a process that would not
/// start or stop), thrown with a sentence that says what to do.
public struct SupportFailure: Error, CustomStringConvertible, Sendable {
    public var description: String

    public init(_ description: String) { self.description = description }

    public init(description: String) { self.description = description }
}
