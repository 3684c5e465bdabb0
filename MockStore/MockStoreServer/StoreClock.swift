import Foundation

/// Where the store gets the time from; tests inject a fixed or stepping clock.
public protocol StoreClock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The system's wall clock.
public struct SystemClock: StoreClock {
    public init() {}
    public func now() -> Date { Date() }
}

extension Date {
    /// Whole milliseconds since 1970, as Apple's signed transactions carry dates.
    var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1_000).rounded(.down))
    }
}
