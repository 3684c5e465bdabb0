import Clocks
import Foundation

/// Where the store gets the time from: the one clock protocol of the package; tests inject a fixed or stepping
/// clock.
public typealias StoreClock = WallClock

extension WallClock {
    /// The current time as the store reads it.
    public func now() -> Date { currentDate() }
}

extension Date {
    /// Whole milliseconds since 1970, as Apple's signed transactions carry dates.
    var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1_000).rounded(.down))
    }
}
