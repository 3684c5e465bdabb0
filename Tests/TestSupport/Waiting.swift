import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A moment `seconds` from when it was made, for loops that must give up.
public struct Deadline: Sendable {
    public let end: Date

    public init(seconds: TimeInterval) { end = Date().addingTimeInterval(seconds) }

    public var hasPassed: Bool { Date() >= end }
}

/// Polls `condition` until it holds or `timeout` seconds pass, and says whether it held. The first pauses are short
/// (1 ms, doubling) and then every `interval` seconds, so a quick condition costs little and a slow one little CPU.
@discardableResult
public func waitUntil(
    timeout: TimeInterval, pollEvery interval: TimeInterval = 0.02, _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = Deadline(seconds: timeout)
    var pause = min(0.001, interval)
    while true {
        if try condition() { return true }
        if deadline.hasPassed { return false }
        usleep(useconds_t(pause * 1_000_000))
        pause = min(pause * 2, interval)
    }
}

/// Waits (polling every 20 ms, at most `timeout` seconds) until `condition` holds; records an issue if it never does.
/// The default bound is generous on purpose: on a loaded 2-core machine the test process's cooperative threads can
/// be held by other suites' blocking waits for minutes, and a test must wait for the event, not for a clock.
@discardableResult
public func eventually(
    timeout: TimeInterval = 300, _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async throws -> Bool {
    let deadline = Deadline(seconds: timeout)
    while true {
        // Checked once more after the deadline: a task held off its thread past the deadline still looks.
        let passed = deadline.hasPassed
        if try await condition() { return true }
        if passed { break }
        try await Task.sleep(for: .milliseconds(20))
    }
    Issue.record("timed out waiting until \(what)", sourceLocation: sourceLocation)
    return false
}

/// Runs `body`, failing the test when it has not finished within `seconds`. Only a bound on a hang: `body` waits on
/// events (the next transaction update, the store's answer), and a test that works ends long before it.
public func withinTimeLimit<Value: Sendable>(
    seconds: Int = 30, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: TimeLimitOutcome<Value>.self) { group in
        group.addTask { .finished(try await body()) }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return .timedOut
        }
        defer { group.cancelAll() }
        guard case .finished(let value) = try await group.next() else {
            Issue.record("the test hung: not done within \(seconds) s", sourceLocation: sourceLocation)
            throw SupportFailure("the test hung: not done within \(seconds) s")
        }
        return value
    }
}

/// Which of ``withinTimeLimit(seconds:sourceLocation:_:)``'s two tasks ended first.
private enum TimeLimitOutcome<Value: Sendable>: Sendable {
    case finished(Value)
    case timedOut
}

/// Holds the calling thread `seconds`: a scenario's own pacing (a byte every 200 ms, a request sent in pieces), never
/// a wait for something to happen. The one place a test pauses on the clock.
public func pace(seconds: TimeInterval) {
    usleep(useconds_t(seconds * 1_000_000))
}
