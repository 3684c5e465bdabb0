import Clocks
import Dispatch
import Foundation
import Synchronization

/// The store's one timer: on a thread of its own it does what the clock brings due while nobody calls the store
/// (renewals, expiries, the ends of grace periods and billing retry, mass extensions, notifications and their
/// retries), then waits on the store's clock until the next of them, so a server test waiting for a webhook under an
/// Xcode time rate gets it, and a test's clock brings it the moment the test moves there.
///
/// Anything that changes what is due or when (a purchase, a notification made, `clock advance`, `clock rate`) rings
/// the store's wake, and it looks again. A clock whose time does not run (a fixed one) brings nothing due. It looks at
/// least every ``longestWait`` milliseconds of real time, should the system clock jump.
public final class StoreTimer: Sendable {
    /// The longest it waits without looking, in real milliseconds.
    public static let longestWait: Int64 = 60_000
    /// The first and the longest pause, in real milliseconds, when something is due but nothing could run.
    static let firstPause: Int64 = 10
    static let longestPause: Int64 = 1_000

    private let store: MockStore
    private let dispatcher: NotificationDispatcher?
    private let running = Mutex(true)
    /// The passes begun and ended, and who waits for one.
    private let passes = Mutex(Passes())
    private let finished = DispatchSemaphore(value: 0)

    /// Starts doing `store`'s timed work (any due already, from before a restart, at once), and delivering its
    /// notifications through `dispatcher` when it has a `--notify` URL.
    public init(store: MockStore, dispatcher: NotificationDispatcher? = nil) {
        self.store = store
        self.dispatcher = dispatcher
        store.subscriptionRuntime.hasTimer = true
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "mockstore.timer"
        thread.start()
    }

    /// Stops after the pass in progress, if any, and waits for the thread to end. Idempotent.
    public func stop() {
        let wasRunning = running.withLock { running in
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        store.subscriptionRuntime.hasTimer = false
        store.subscriptionRuntime.wake.ring()
        finished.wait()
        ended(pass: Int.max, begunAt: Int64.max)
    }

    /// Returns once a pass that began with the store's clock at `milliseconds` or later has ended: everything due by
    /// then has run (a test moves its clock there, then waits for this). Returns at once after ``stop()``.
    public func pass(reaching milliseconds: Int64) async {
        // Rung, so a pass begins even when the move brought nothing due: the timer may have gone to wait, after its
        // last pass, until a time computed from the clock already moved, and would otherwise sleep past the mark.
        if !passes.withLock({ $0.isPast(.clock(milliseconds)) }) { store.subscriptionRuntime.wake.ring() }
        await until(.clock(milliseconds))
    }

    /// Makes it look now, and returns once a pass begun after this call has ended: everything due when it was called
    /// has run (a notification just made has been tried, say). Returns at once after ``stop()``.
    public func look() async {
        let next = passes.withLock { $0.begun + 1 }
        store.subscriptionRuntime.wake.ring()
        await until(.pass(next))
    }

    private func until(_ mark: Passes.Mark) async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let now = passes.withLock { passes in
                guard !passes.isPast(mark), isRunning else { return true }
                passes.waiting.append((mark, waiter))
                return false
            }
            if now { waiter.resume() }
        }
    }

    /// Records that pass `number`, begun at `start` on the store's clock, ended, and lets go of whoever waited for it.
    private func ended(pass number: Int, begunAt start: Int64) {
        let done = passes.withLock { passes in
            passes.ended = max(passes.ended, number)
            passes.reached = max(passes.reached, start)
            let current = passes
            passes.waiting.removeAll { current.isPast($0.0) }
            return current.waiting.filter { current.isPast($0.0) }.map(\.1)
        }
        for waiter in done { waiter.resume() }
    }

    private var isRunning: Bool { running.withLock { $0 } }

    private func run() {
        dispatcher?.reschedulePending()
        var pause = Self.firstPause
        while isRunning {
            let begun = store.virtualClock.currentMilliseconds()
            let number = passes.withLock { passes in
                passes.begun += 1
                return passes.begun
            }
            let ranEvents = store.subscriptions.runDueSubscriptionEvents()
            store.extensions.completeDueMassExtensions()
            var next = [store.subscriptionRuntime.nextEventDate, store.extensions.nextMassExtensionDate()]
            if let dispatcher {
                let (tried, nextDue) = dispatcher.deliverDue { [self] in isRunning }
                if tried > 0 { continue }  // delivering took time: look again before waiting
                next.append(nextDue)
            }
            let clock = store.virtualClock
            var deadline = next.compactMap { $0 }.min() ?? Int64.max
            if deadline <= clock.currentMilliseconds() && (ranEvents ?? 0) == 0 {
                // Due, yet nothing ran (the database failed, or the next date it keeps is stale): look again after a
                // pause that doubles each time, rather than spin.
                deadline = clock.milliseconds(afterRealMilliseconds: pause)
                pause = min(pause * 2, Self.longestPause)
            } else {
                pause = Self.firstPause
            }
            ended(pass: number, begunAt: begun)
            _ = clock.wait(
                until: min(deadline, clock.milliseconds(afterRealMilliseconds: Self.longestWait)),
                orUntil: store.subscriptionRuntime.wake)
        }
    }
}

/// The timer's passes: how many began and ended, where the store's clock stood when the last one that ended began,
/// and who waits for a pass.
private struct Passes {
    enum Mark {
        /// A pass begun with the clock at this time or later.
        case clock(Int64)
        /// This pass, counted from 1.
        case pass(Int)
    }

    var begun = 0
    var ended = 0
    var reached = Int64.min
    var waiting: [(Mark, CheckedContinuation<Void, Never>)] = []

    func isPast(_ mark: Mark) -> Bool {
        switch mark {
        case .clock(let milliseconds): reached >= milliseconds
        case .pass(let number): ended >= number
        }
    }
}
