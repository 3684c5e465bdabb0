import Foundation
import Locking

/// A clock that stands still until a test moves it: what waits on it (a renewal, a notification's retry, a request's
/// deadline) happens when the test advances it there, at once and without waiting in real time.
public final class TestClock: WallClock, Sendable {
    private struct State {
        var now: Int64
        var waiters: [ObjectIdentifier: ClockWake] = [:]
    }

    private let state: Locked<State>

    /// A clock reading `milliseconds` since 1970.
    public init(milliseconds: Int64) {
        state = Locked(State(now: milliseconds))
    }

    public func currentMilliseconds() -> Int64 { state.withLock { $0.now } }

    /// Moves the clock on by `milliseconds` (never back) and wakes whatever waits on it to look.
    public func advance(byMilliseconds milliseconds: Int64) {
        let waiting = state.withLock { state in
            state.now += max(0, milliseconds)
            return Array(state.waiters.values)
        }
        for wake in waiting { wake.poke() }
    }

    /// How many threads are waiting on the clock now (a test moves it once the work it drives is waiting).
    public var waiting: Int { state.withLock { $0.waiters.count } }

    /// Waits until the test moves the clock to `deadline` (false) or `wake` rings (true); never in real time.
    public func wait(until deadline: Int64, orUntil wake: ClockWake) -> Bool {
        let key = ObjectIdentifier(wake)
        state.withLock { $0.waiters[key] = wake }
        defer { _ = state.withLock { $0.waiters.removeValue(forKey: key) } }
        return wake.wait(milliseconds: nil) { currentMilliseconds() >= deadline }
    }
}
