import Foundation

/// What ends a wait on a clock before its time: ``ring()`` says something changed (a purchase, a move of the clock, a
/// stop), so the waiter looks again. A ring while nobody waits is kept for the next wait, as a semaphore's signal is.
///
/// Clocks also wake a waiter without a ring (``poke()``: a test clock moved) so that it checks whether its time has
/// come. `@unchecked Sendable`: its state is read and written under `condition`'s lock only.
public final class ClockWake: @unchecked Sendable {
    private let condition = NSCondition()
    private var rung = false

    public init() {}

    /// Wakes the waiter, or the next one to wait.
    public func ring() {
        condition.lock()
        rung = true
        condition.broadcast()
        condition.unlock()
    }

    /// Wakes the waiter to check its clock again, without a ring.
    public func poke() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until a ring (true, and the ring is used up), until `reached()` holds when checked after a poke or at
    /// the start (false), or until `milliseconds` of real time have passed (false; nil: no limit). `reached` is
    /// called with the wake's lock held, so a poke made after what it reads changed is never missed.
    public func wait(milliseconds: Int64?, unless reached: () -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let limit = milliseconds.map { Date(timeIntervalSinceNow: Double(max(0, $0)) / 1_000) }
        while !rung && !reached() {
            if let limit {
                if !condition.wait(until: limit) { break }
            } else {
                condition.wait()
            }
        }
        defer { rung = false }
        return rung
    }
}
