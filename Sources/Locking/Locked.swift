import Synchronization

/// A value shared between threads, read and changed only under its lock: the package's one lock type, shaped like
/// NIO's `NIOLockedValueBox` over the standard library's `Mutex`. A class, so that whatever holds one shares it (a
/// `Mutex` cannot be copied).
///
/// ```swift
/// let count = Locked(0)
/// count.withLock { $0 += 1 }
/// ```
public final class Locked<Value>: Sendable {
    private let mutex: Mutex<Value>

    /// A lock holding `value`.
    public init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with the value, under the lock: what it changes is kept, what it returns is returned.
    public func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try mutex.withLock(body)
    }

    /// ``withLock(_:)`` by NIO's name.
    public func withLockedValue<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try mutex.withLock(body)
    }
}
