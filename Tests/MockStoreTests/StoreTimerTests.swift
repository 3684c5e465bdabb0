import Clocks
import Foundation
import StoreTestControls
import StoreWire
import TestSupport
import Testing

@testable import MockStoreHTTP
@testable import MockStoreServer
@testable import StoreKitCatalogue

/// The store's one timer on a test's clock (issue 34, one clock that waits): renewals, notification retries and mass
/// extensions happen when the test moves the clock to them, with nobody calling the store and nothing waiting in real
/// time (a retry an hour of real time away comes at once).
@Suite struct StoreTimerTests {
    static let secret = Array("store-timer-secret".utf8)
    static let weekly = "com.example.news.weekly"

    let directory: TemporaryDirectory
    let base = TestClock(milliseconds: fixedDate.millisecondsSince1970)

    init() throws {
        directory = try TemporaryDirectory("store-timer")
    }

    /// A store on `base`, selling the subscription fixture, sending notifications to `notify` (production, so
    /// failed sends are tried again on Apple's schedule, an hour of it being a real hour).
    private func store(notify: String? = nil) throws -> MockStore {
        MockStore(
            configuration: .init(
                catalogue: try StoreKitConfiguration.load(contentsOf: Repository.subscriptionCatalogue),
                bundleId: "ai.voicedebrief.app", signer: JWSTransactionSigner.hs256(secret: Self.secret), clock: base,
                environment: notify == nil ? .sandbox : .production, notificationURL: notify,
                retryPolicy: NotificationRetryPolicy(baseMilliseconds: 3_600_000)),
            database: try TransactionStore(path: directory.file("store.sqlite")))
    }

    private func types(_ store: MockStore) throws -> [NotificationType] {
        try store.notifications.notificationRecords().notifications.map(\.notificationType)
    }

    @Test func aRenewalRunsWhenTheTestClockReachesItWithNobodyCallingTheStore() async throws {
        let store = try store()
        defer { try? store.close() }
        _ = try store.purchases.purchase(PurchaseRequestBody(productId: Self.weekly))
        let expires = try #require(try store.subscriptions.testSubscriptions().subscriptions.first?.expiresDate)
        let timer = StoreTimer(store: store)
        defer { timer.stop() }
        try await withinTimeLimit { await timer.look() }
        #expect(try types(store) == [.subscribed], "nothing is due before the week is out")

        base.advance(byMilliseconds: expires - base.currentMilliseconds() - 1)
        try await withinTimeLimit { [base] in await timer.pass(reaching: base.currentMilliseconds()) }
        #expect(try types(store) == [.subscribed], "a millisecond early: still nothing")

        base.advance(byMilliseconds: 1)
        // No ring: the timer wakes because the clock it waits on reached the renewal.
        try await withinTimeLimit { [base] in await timer.pass(reaching: base.currentMilliseconds()) }
        #expect(try types(store) == [.subscribed, .didRenew], "renewed at its time, with nobody calling the store")
    }

    @Test func aFailedNotificationIsTriedAgainWhenTheTestClockReachesItsRetry() async throws {
        let receiver = try NotificationReceiver(statuses: [500])
        let store = try store(notify: receiver.url)
        defer { try? store.close() }
        let timer = StoreTimer(store: store, dispatcher: NotificationDispatcher(store: store, url: receiver.url))
        defer { timer.stop() }
        _ = try store.purchases.purchase(PurchaseRequestBody(productId: Self.weekly))
        try await withinTimeLimit { await timer.look() }
        let first = try #require(try store.notifications.notificationRecords().notifications.first)
        #expect(first.sendAttempts.map(\.httpStatus) == [500])
        let retry = try #require(first.nextAttemptDate, "a failed send is tried again")
        #expect(retry == first.sendAttempts[0].attemptDate + 3_600_000, "Apple's first retry, an hour on")

        base.advance(byMilliseconds: retry - base.currentMilliseconds())
        try await withinTimeLimit { [base] in await timer.pass(reaching: base.currentMilliseconds()) }
        let again = try #require(try store.notifications.notificationRecords().notifications.first)
        #expect(again.sendAttempts.map(\.httpStatus) == [500, 200], "tried again an hour of the clock later, at once")
        #expect(receiver.recorder.state.withLock { $0.bodies.count } == 2)
    }

    @Test func aTestClockWaitEndsWhenMovedThereOrRungAndNeverInRealTime() async throws {
        let wake = ClockWake()
        let start = base.currentMilliseconds()
        wake.ring()
        #expect(base.wait(until: start + 1_000, orUntil: wake), "a ring made before the wait is kept for it")
        // On a thread of its own, started here: the wait blocks, and the cooperative pool is the rest of the suite's
        // (a Task starting the thread waited for a pool thread, more than 30 s once on a loaded machine).
        let (outcome, answer) = AsyncStream.makeStream(of: Bool.self)
        Thread { [base] in
            answer.yield(base.wait(until: start + 1_000, orUntil: wake))
            answer.finish()
        }.start()
        let clock = base
        let began = try await eventually(timeout: 30, "the wait began") { clock.waiting == 1 }
        #expect(began)
        base.advance(byMilliseconds: 999)
        #expect(base.waiting == 1, "short of the deadline it still waits")
        base.advance(byMilliseconds: 1)
        var outcomes = outcome.makeAsyncIterator()
        #expect(await outcomes.next() == false, "the clock reached the deadline: no ring")
        #expect(base.waiting == 0)
    }
}
