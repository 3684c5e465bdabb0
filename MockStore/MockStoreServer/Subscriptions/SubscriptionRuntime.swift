import Clocks
import Dispatch
import StoreKitCatalogue
import Synchronization

/// What the store keeps for subscriptions beside its database: the virtual clock, the lifecycle over the
/// catalogue, and when the clock next changes a subscription (so a request that finds nothing due costs no
/// database call).
final class SubscriptionRuntime: Sendable {
    let clock: VirtualClock
    let lifecycle: SubscriptionLifecycle
    /// The catalogue's `_timeRate` (real time when it has none or one this store does not know).
    let defaultRate: TimeRate
    /// Set under the sandbox clock: the clock is the wall clock and periods last what Apple's sandbox gives them.
    let sandboxRate: SandboxRenewalRate?
    /// `unknown`: look in the database; `nil` inside: nothing will fall due.
    private let nextEvent = Mutex<Int64?>(SubscriptionRuntime.unknown)
    private static let unknown = Int64.min
    /// Rung whenever the next event, the clock or anything else the store's timer waits for may have changed: the
    /// one wake of the ``StoreTimer`` (notifications due ring it too).
    let wake = ClockWake()
    /// Whether a ``StoreTimer`` runs for the store: then it makes what falls due, and a request leaves it to it.
    private let timed = Mutex(false)

    /// Whether a ``StoreTimer`` runs for the store.
    var hasTimer: Bool {
        get { timed.withLock { $0 } }
        set { timed.withLock { $0 = newValue } }
    }

    /// Reads the persisted clock from `database` (real time at the catalogue's rate when there is none);
    /// `isProduction` sets the lapse `recentSubscriptionStartDate` ignores (Apple's 60 days, else the sandbox's 10
    /// minutes). Under the sandbox clock (`sandboxRate`) the clock reads real time whatever was persisted.
    init(
        catalogue: StoreKitConfiguration, base: any StoreClock, database: TransactionStore, isProduction: Bool,
        sandboxRate: SandboxRenewalRate? = nil
    ) {
        var lifecycle = SubscriptionLifecycle(catalogue: catalogue)
        lifecycle.recentStartLapseLimit =
            isProduction ? SubscriptionLifecycle.productionLapseLimit : SubscriptionLifecycle.sandboxLapseLimit
        self.lifecycle = lifecycle
        self.sandboxRate = sandboxRate
        defaultRate = catalogue.settings.timeRate.flatMap(TimeRate.init(rawValue:)) ?? .realTime
        let shortest = lifecycle.products.values.map { Self.days($0.period) }.min() ?? 30
        if sandboxRate != nil {
            clock = VirtualClock(base: base, rate: .realTime, shortestPeriodDays: shortest)
        } else if let saved = try? database.clockState() {
            clock = VirtualClock(base: base, rate: saved.rate, shortestPeriodDays: shortest)
            clock.restore(saved)
        } else {
            clock = VirtualClock(base: base, rate: .realTime, shortestPeriodDays: shortest)
            if defaultRate != .realTime { clock.setRate(defaultRate) }
        }
        // Known from the start, so that a request finds nothing due without a database call.
        if let next = try? database.nextSubscriptionEventDate() {
            nextEvent.withLock { $0 = next }
        } else if (try? database.everyCustomersSubscriptionStates().isEmpty) == true {
            nextEvent.withLock { $0 = nil }
        }
    }

    /// Whether something may fall due by `now`.
    func mayBeDue(now: Int64) -> Bool {
        nextEvent.withLock { value in
            guard let next = value else { return false }
            return next == Self.unknown || next <= now
        }
    }

    /// When the clock next changes a subscription, when that is known (`nil`: nothing will, or not known yet).
    var nextEventDate: Int64? {
        nextEvent.withLock { value in value == Self.unknown ? nil : value }
    }

    /// Records when the clock next changes a subscription (after a commit, or a move of the clock, which changes
    /// how long the timer has to wait even when the date stays).
    func noteNextEvent(_ date: Int64?) {
        nextEvent.withLock { $0 = date }
        wake.ring()
    }

    /// Forget it: look in the database next time. Also called when the clock's rate changes.
    func invalidate() {
        nextEvent.withLock { $0 = Self.unknown }
        wake.ring()
    }

    /// A period's length in days, roughly (for the fixed rates' speed).
    static func days(_ period: SubscriptionPeriod) -> Double {
        switch period.unit {
        case .day: Double(period.value)
        case .week: Double(period.value * 7)
        case .month: Double(period.value * 30)
        case .year: Double(period.value * 365)
        }
    }
}
