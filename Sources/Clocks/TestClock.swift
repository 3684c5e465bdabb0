import Foundation

/// A clock that stands still until a test moves it: what waits on it (a renewal, a notification's retry, a request's
/// deadline) happens when the test advances it there, at once and without waiting in real time.
///
/// `@unchecked Sendable`: the time and the waiters are read and written under `lock` only.
public final class TestClock: WallClock, @unchecked Sendable {
    private let lock = NSLock()
    private var now: Int64
    private var waiters: [ObjectIdentifier: ClockWake] = [:]

    /// A clock reading `milliseconds` since 1970.
    public init(milliseconds: Int64) {
        now = milliseconds
    }

    public func currentMilliseconds() -> Int64 { lock.withLock { now } }

    /// Moves the clock on by `milliseconds` (never back) and wakes whatever waits on it to look.
    public func advance(byMilliseconds milliseconds: Int64) {
        let waiting = lock.withLock {
            now += max(0, milliseconds)
            return Array(waiters.values)
        }
        for wake in waiting { wake.poke() }
    }

    /// How many threads are waiting on the clock now (a test moves it once the work it drives is waiting).
    public var waiting: Int { lock.withLock { waiters.count } }

    /// Waits until the test moves the clock to `deadline` (false) or `wake` rings (true); never in real time.
    public func wait(until deadline: Int64, orUntil wake: ClockWake) -> Bool {
        let key = ObjectIdentifier(wake)
        lock.withLock { waiters[key] = wake }
        defer { _ = lock.withLock { waiters.removeValue(forKey: key) } }
        return wake.wait(milliseconds: nil) { currentMilliseconds() >= deadline }
    }
}
