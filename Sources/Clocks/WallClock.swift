import Foundation

/// Where a component gets the time: one protocol for the ledger and the mock store, injected so that tests are
/// deterministic. The time is whole milliseconds since 1970 (UTC), the resolution both the ledger's entries and
/// Apple's signed transactions carry; each module adds the view it reads (`Timestamp`, `Date`) in an extension.
public protocol WallClock: Sendable {
    /// The current time, in whole milliseconds since 1970 (UTC).
    func currentMilliseconds() -> Int64
}

extension WallClock {
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
