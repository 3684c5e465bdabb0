import Clocks
import Synchronization

/// The store's one clock: every date the device API, the Server API, notifications and one-time purchases read
/// comes from it. Virtual time is an anchor plus the real time since, times the rate's factor:
/// `now = anchorVirtual + (real − anchorReal) × factor`. Advancing moves the anchor; changing the rate re-anchors
/// at the current virtual time, so time never jumps back. The store keeps ``State`` in its database.
public final class VirtualClock: StoreClock {
    /// What is persisted: where virtual time was at a moment of real time, and how fast it runs since.
    public struct State: Equatable, Sendable, Codable {
        public var anchorReal: Int64
        public var anchorVirtual: Int64
        public var rate: TimeRate

        public init(anchorReal: Int64, anchorVirtual: Int64, rate: TimeRate) {
            self.anchorReal = anchorReal
            self.anchorVirtual = anchorVirtual
            self.rate = rate
        }
    }

    /// Real time.
    public let base: any StoreClock
    /// The catalogue's shortest auto-renewable period in days (what a fixed rate renews every period of).
    public let shortestPeriodDays: Double
    private let state: Mutex<State>

    /// A clock at real time from now, at `rate`.
    public init(base: any StoreClock, rate: TimeRate = .realTime, shortestPeriodDays: Double = 30) {
        self.base = base
        self.shortestPeriodDays = shortestPeriodDays
        let now = base.currentMilliseconds()
        state = Mutex(State(anchorReal: now, anchorVirtual: now, rate: rate))
    }

    public func currentMilliseconds() -> Int64 {
        let real = base.currentMilliseconds()
        return state.withLock {
            Self.virtual(at: real, $0, factor: $0.rate.factor(shortestPeriodDays: shortestPeriodDays))
        }
    }

    /// The state now (for persisting).
    public var current: State { state.withLock { $0 } }

    /// The rate in force.
    public var rate: TimeRate { state.withLock { $0.rate } }

    /// How many real milliseconds from now virtual time takes to reach `virtual` at the rate in force (0 when it
    /// has), rounded up so that a wait of that long never ends before it. A clock whose real time does not run (a
    /// test's fixed clock) never gets there: the answer stays the same however long one waits.
    public func realMilliseconds(until virtual: Int64) -> Int64 {
        let real = base.currentMilliseconds()
        return state.withLock { current in
            let factor = current.rate.factor(shortestPeriodDays: shortestPeriodDays)
            let now = Self.virtual(at: real, current, factor: factor)
            guard virtual > now else { return 0 }
            return Int64(min((Double(virtual - now) / factor).rounded(.up), 1e15))
        }
    }

    /// Waits until virtual time reaches `virtual` (false) or `wake` rings (true), on the real clock underneath: the
    /// real moment that virtual time is reached at the rate in force. Whoever moves this clock or changes its rate rings
    /// the store's wake, so a waiter never waits on a rate no longer in force.
    public func wait(until virtual: Int64, orUntil wake: ClockWake) -> Bool {
        while currentMilliseconds() < virtual {
            if base.wait(until: realMoment(of: virtual), orUntil: wake) { return true }
        }
        return false
    }

    /// The virtual time `real` milliseconds of real time from now, at the rate in force.
    public func milliseconds(afterRealMilliseconds real: Int64) -> Int64 {
        let now = base.currentMilliseconds() + max(0, real)
        return state.withLock {
            Self.virtual(at: now, $0, factor: $0.rate.factor(shortestPeriodDays: shortestPeriodDays))
        }
    }

    /// The real time at which virtual time reaches `virtual` at the rate in force (rounded up).
    private func realMoment(of virtual: Int64) -> Int64 {
        state.withLock { current in
            let factor = current.rate.factor(shortestPeriodDays: shortestPeriodDays)
            guard virtual > current.anchorVirtual else { return current.anchorReal }
            let real = (Double(virtual - current.anchorVirtual) / factor).rounded(.up)
            return current.anchorReal + Int64(min(real, 1e15))
        }
    }

    /// Puts back a persisted state. Real time that passed while the store was stopped runs at its rate too, but
    /// the virtual time never goes back before `state.anchorVirtual`.
    public func restore(_ restored: State) {
        state.withLock { $0 = restored }
    }

    /// Moves virtual time to `virtual` (never back) and returns the new state.
    @discardableResult
    public func move(to virtual: Int64) -> State {
        reanchored { now, current in (max(now, virtual), current.rate) }
    }

    /// Sets the rate from now on and returns the new state.
    @discardableResult
    public func setRate(_ rate: TimeRate) -> State {
        reanchored { now, _ in (now, rate) }
    }

    /// A new state anchored at the real time now: its virtual time and rate are what `next` makes of the virtual
    /// time now and the state in force.
    private func reanchored(_ next: (_ now: Int64, _ current: State) -> (virtual: Int64, rate: TimeRate)) -> State {
        let real = base.currentMilliseconds()
        return state.withLock { current in
            let now = Self.virtual(
                at: real, current, factor: current.rate.factor(shortestPeriodDays: shortestPeriodDays))
            let (virtual, rate) = next(now, current)
            current = State(anchorReal: real, anchorVirtual: virtual, rate: rate)
            return current
        }
    }

    private static func virtual(at real: Int64, _ state: State, factor: Double) -> Int64 {
        let elapsed = Double(max(0, real - state.anchorReal)) * factor
        return state.anchorVirtual + Int64(min(elapsed, 1e15))
    }
}
