import Foundation
import Signing
import StoreTestControls
import StoreWire
import Testing

/// Subscription behaviours Apple documents, through the real `mockstore` binary: `recentSubscriptionStartDate`
/// across lapses of paid service, and auto-renew turned off by the App Store after a refund request or a refund.
@Suite struct SubscriptionFidelityBinaryTests {
    static let weekly = SubscriptionBinaryTests.weekly
    static let proMonthly = SubscriptionBinaryTests.proMonthly

    let base: SubscriptionBinaryTests

    init() throws { base = try SubscriptionBinaryTests() }

    func start(_ extra: [String] = []) async throws -> MockStoreHarness {
        try await MockStoreHarness.start(
            dataDirectory: base.data, extraArguments: extra, catalogue: SubscriptionBinaryTests.catalogue)
    }

    /// The notifications made since the first `count`, as (type, subtype, status, autoRenewStatus).
    func told(_ store: MockStoreHarness, root: Certificate, after count: Int) async throws -> [Told] {
        try await base.notifications(store, root: root).dropFirst(count).map {
            Told(
                type: $0.payload.notificationType, subtype: $0.payload.subtype, status: $0.payload.data?.status,
                autoRenewStatus: $0.renewal.autoRenewStatus, transactionId: $0.transaction.transactionId)
        }
    }

    struct Told: Equatable, CustomStringConvertible {
        var type: NotificationType
        var subtype: NotificationSubtype?
        var status: SubscriptionStatus?
        var autoRenewStatus: AutoRenewStatus
        var transactionId: String

        var description: String {
            "\(type) \(subtype?.rawValue ?? "-") status \(status?.rawValue ?? 0) autoRenew \(autoRenewStatus)"
        }
    }

    /// Lapses the subscription of `product` (expired now), moves the clock on by `lapse`, buys it again and
    /// returns the purchase and the RESUBSCRIBE's `recentSubscriptionStartDate`.
    func resubscribe(_ store: MockStoreHarness, after lapse: String, root: Certificate) async throws -> (
        purchase: SignedTransactionPayload, recentStart: Int64
    ) {
        let expired = try await store.testStore.expire(Self.weekly)
        #expect(expired.notificationType == .expired)
        _ = try await store.testStore.advanceClock(by: ClockStep(iso8601: lapse))
        let again = try await base.buy(store, Self.weekly, root: root)
        let back = try await #require(try base.notifications(store, root: root).last)
        #expect(back.payload.notificationType == .subscribed && back.payload.subtype == .resubscribe)
        return (again, back.renewal.recentSubscriptionStartDate)
    }
}

extension SubscriptionFidelityBinaryTests {
    @Test(arguments: [
        // Apple: lapses shorter than 10 minutes in the sandbox, 60 days in production, are ignored.
        ([String](), "PT9M30S", "PT10M"),
        (["--environment", "production"], "P59DT23H", "P60D"),
    ])
    func recentSubscriptionStartDateIgnoresShortLapsesOnly(environment: [String], short: String, long: String)
        async throws
    {
        let store = try await start(environment)
        let root = try await base.root(store)
        let first = try await base.buy(store, Self.weekly, root: root)
        let kept = try await resubscribe(store, after: short, root: root)
        #expect(kept.recentStart == first.purchaseDate, "\(environment): a lapse of \(short) is ignored")
        let renewed = try await store.testStore.advanceClock(by: .days(8))
        #expect(renewed.events?.map(\.notificationType) == [.didRenew])
        await #expect(
            try base.notifications(store, root: root).last?.renewal.recentSubscriptionStartDate == first.purchaseDate)
        let reset = try await resubscribe(store, after: long, root: root)
        #expect(reset.recentStart == reset.purchase.purchaseDate, "\(environment): a lapse of \(long) starts a new run")
        #expect(reset.purchase.originalTransactionId == first.transactionId, "the same subscription all the same")
        #expect(try await store.stop() == 0)
    }

    @Test func aRevocationIsALapseFromItsDate() async throws {
        let store = try await start()
        let root = try await base.root(store)
        let first = try await base.buy(store, Self.weekly, root: root)
        _ = try await store.testStore.refund(first.transactionId)
        // The week bought runs for days yet: the lapse counts from the refund, not from the end of the period.
        _ = try await store.testStore.advanceClock(by: .minutes(10))
        let again = try await base.buy(store, Self.weekly, root: root)
        let back = try await #require(try base.notifications(store, root: root).last)
        #expect(back.payload.subtype == .resubscribe)
        #expect(back.renewal.recentSubscriptionStartDate == again.purchaseDate)
        #expect(try await store.stop() == 0)
    }

    @Test func theAppStoreTurnsAutoRenewOffAfterARefundRequestAndAfterARefund() async throws {
        let store = try await start()
        let root = try await base.root(store)
        let first = try await base.buy(store, Self.weekly, root: root)
        let renewal = try await #require(
            try store.testStore.advanceClock(by: .days(8)).events?.first?.transactionId)
        var count = try await base.notifications(store, root: root).count
        func next() async throws -> [Told] {
            let result = try await told(store, root: root, after: count)
            count = (try? await base.notifications(store, root: root).count) ?? count
            return result
        }
        let disabled = { (status: SubscriptionStatus) in
            Told(
                type: .didChangeRenewalStatus, subtype: .autoRenewDisabled, status: status, autoRenewStatus: .off,
                transactionId: renewal)
        }

        _ = try await store.testStore.requestRefund(first.transactionId)
        var seen = try await next()
        #expect(seen.map(\.type) == [.consumptionRequest, .didChangeRenewalStatus], "\(seen)")
        #expect(seen.last == disabled(.active), "about the latest transaction, still active")
        _ = try await store.testStore.declineRefund(first.transactionId)
        await #expect(try next().map(\.type) == [.refundDeclined], "auto-renew stays off")
        _ = try await store.testStore.setAutoRenew(Self.weekly, true)
        await #expect(try next().map(\.subtype) == [.autoRenewEnabled])

        // A refund of a period no longer in force, without a request: still active, auto-renew off.
        _ = try await store.testStore.refund(first.transactionId)
        seen = try await next()
        #expect(seen.map(\.type) == [.refund, .didChangeRenewalStatus] && seen.last == disabled(.active), "\(seen)")
        let subscription = try await #require(
            try store.testStore.subscriptions().first)
        #expect(subscription.autoRenewStatus == .off && subscription.status == .active)

        // Off already: a request and its refund say nothing more of it.
        _ = try await store.testStore.requestRefund(renewal)
        await #expect(try next().map(\.type) == [.consumptionRequest])
        _ = try await store.testStore.refund(renewal)
        seen = try await next()
        #expect(seen.map(\.type) == [.refund] && seen.first?.status == .revoked, "\(seen)")

        // The period in force refunded with auto-renew on: revoked, then auto-renew off.
        let monthly = try await base.buy(store, Self.proMonthly, root: root)
        count = try await base.notifications(store, root: root).count
        _ = try await store.testStore.refund(monthly.transactionId)
        seen = try await next()
        #expect(seen.map(\.type) == [.refund, .didChangeRenewalStatus], "\(seen)")
        #expect(
            seen.allSatisfy {
                $0.status == .revoked && $0.autoRenewStatus == .off && $0.transactionId == monthly.transactionId
            })
        #expect(try await store.stop() == 0)
    }
}
