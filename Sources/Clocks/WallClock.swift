import Foundation

/// Where a component gets the time: one protocol for the ledger and the mock store, injected so that tests are
/// deterministic. The time is whole milliseconds since 1970 (UTC), the resolution both the ledger's entries and
/// Apple's signed transactions carry; each module adds the view it reads (`Timestamp`, `Date`) in an extension.
public protocol WallClock: Sendable {
    /// The current time, in whole milliseconds since 1970 (UTC).
    func currentMilliseconds() -> Int64

    /// Blocks the calling thread until this clock reads `deadline` or later (false) or `wake` rings first (true).
    /// A clock of real time waits in real time (the default); a test's clock waits until the test moves it there, however
    /// long that takes.
    func wait(until deadline: Int64, orUntil wake: ClockWake) -> Bool
}

extension WallClock {
    /// Waits in real time: the clock's milliseconds are taken to pass as real ones do.
    public func wait(until deadline: Int64, orUntil wake: ClockWake) -> Bool {
        wake.wait(milliseconds: deadline - currentMilliseconds()) { currentMilliseconds() >= deadline }
    }

    /// The current time as a `Date`.
    public func currentDate() -> Date {
        Date(timeIntervalSince1970: Double(currentMilliseconds()) / 1_000)
    }
}

/// The system's wall clock.
public struct SystemClock: WallClock {
    public init() {}

    public func currentMilliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down))
    }
}

/// Real time that only moves forward (the system's uptime), for deadlines: a change of the system's date moves no
/// deadline. Its milliseconds count from an unspecified moment, not 1970.
public struct MonotonicClock: WallClock {
    public init() {}

    public func currentMilliseconds() -> Int64 {
        Int64((ProcessInfo.processInfo.systemUptime * 1_000).rounded(.down))
    }
}
