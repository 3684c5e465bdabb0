import Foundation
import Synchronization
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
    // Not a task group: a group waits for every child, so a body that never ends (and ignores cancellation) would hang
    // the test and the whole run with it. The first of the two to end answers; a hung body is cancelled and left.
    let race = TimeLimitRace<Value>()
    let work = Task { race.end(.finished(await Result { try await body() })) }
    let timer = Task {
        try? await Task.sleep(for: .seconds(seconds))
        race.end(.timedOut)
    }
    let outcome = await race.outcome()
    timer.cancel()
    guard case .finished(let result) = outcome else {
        work.cancel()
        Issue.record("the test hung: not done within \(seconds) s", sourceLocation: sourceLocation)
        throw SupportFailure("the test hung: not done within \(seconds) s")
    }
    return try result.get()
}

/// How ``withinTimeLimit(seconds:sourceLocation:_:)``'s race ended.
private enum TimeLimitOutcome<Value: Sendable>: Sendable {
    case finished(Result<Value, any Error>)
    case timedOut
}

/// The first outcome given wins; whoever waits for it is resumed once.
private final class TimeLimitRace<Value: Sendable>: Sendable {
    private struct State {
        var outcome: TimeLimitOutcome<Value>?
        var waiter: CheckedContinuation<TimeLimitOutcome<Value>, Never>?
    }

    private let state = Mutex(State())

    func end(_ outcome: TimeLimitOutcome<Value>) {
        let waiter = state.withLock { state -> CheckedContinuation<TimeLimitOutcome<Value>, Never>? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: outcome)
    }

    func outcome() async -> TimeLimitOutcome<Value> {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> TimeLimitOutcome<Value>? in
                if state.outcome == nil { state.waiter = continuation }
                return state.outcome
            }
            if let now { continuation.resume(returning: now) }
        }
    }
}

extension Result where Failure == any Error {
    /// The result of `body`: its value, or what it threw.
    fileprivate init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}

/// Holds the calling thread `seconds`: a scenario's own pacing (a byte every 200 ms, a request sent in pieces), never
/// a wait for something to happen. The one place a test pauses on the clock.
public func pace(seconds: TimeInterval) {
    usleep(useconds_t(seconds * 1_000_000))
}
