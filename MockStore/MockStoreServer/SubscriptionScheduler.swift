import Dispatch
import Foundation
import Synchronization

/// Runs the subscription events the virtual clock brings due (renewals, expiries, the end of a grace period or of
/// billing retry) on a thread of its own when their time comes, so that they happen, and are notified, while
/// nobody calls the store: a server test waiting for a webhook under an Xcode time rate gets it.
///
/// It sleeps until the real moment the next event's virtual date is reached at the rate in force, runs what is due
/// (``MockStore/runDueSubscriptionEvents()``, as every request does first), and sleeps again. Anything that moves
/// the next event or the clock (a purchase, `clock advance`, `clock rate`) wakes it to look again. A clock whose
/// real time does not run (a test's fixed clock) brings nothing due: it wakes and finds nothing. It looks at least
/// every ``longestWait`` milliseconds, should the system clock jump.
public final class SubscriptionScheduler: Sendable {
    /// The longest it sleeps without looking, in real milliseconds.
    public static let longestWait: Int64 = 60_000

    private let subscriptions: StoreSubscriptions
    private let running = Mutex(true)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts running `store`'s subscription events as they fall due (any due already, from before a restart,
    /// at once).
    public init(store: MockStore) {
        subscriptions = store.subscriptions
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "mockstore.subscriptions"
        thread.start()
    }

    /// Stops after the run in progress, if any, and waits for the thread to end. Idempotent.
    public func stop() {
        let wasRunning = running.withLock { running in
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        subscriptions.runtime.scheduleChanged.signal()
        finished.wait()
    }

    private var isRunning: Bool { running.withLock { $0 } }

    private func run() {
        var pause = Self.firstPause
        while isRunning {
            let ran = subscriptions.runDueSubscriptionEvents()
            var wait = subscriptions.realMillisecondsUntilNextSubscriptionEvent() ?? Self.longestWait
            if wait <= 0 && (ran ?? 0) == 0 {
                // Due, yet nothing ran (the database failed, or the next date it keeps is stale): look again after
                // a pause that doubles each time, rather than spin.
                wait = pause
                pause = min(pause * 2, Self.longestPause)
            } else {
                pause = Self.firstPause
            }
            _ = subscriptions.runtime.scheduleChanged.wait(
                timeout: .now() + .milliseconds(Int(min(max(wait, 0), Self.longestWait))))
        }
    }

    /// The first and the longest pause, in milliseconds, when something is due but nothing could run.
    static let firstPause: Int64 = 10
    static let longestPause: Int64 = 1_000
}
