import Foundation
import Signing
import StoreTestControls
import StoreWire
import Testing

/// Time that runs by itself, through the real `mockstore` binary: under an Xcode time rate, renewals, expiries and
/// the ends of grace periods and billing retry happen when their time comes and reach the `--notify` receiver
/// while the store is idle. After the set-up these tests make no request to the store: they wait until the
/// receiver has what they expect (a store that runs events only when called never sends it, and the wait fails).
@Suite struct SubscriptionSchedulerBinaryTests {
    static let day = SubscriptionBinaryTests.day

    let directory: TemporaryDirectory
    var data: String { directory.file("data") }

    init() throws { directory = try TemporaryDirectory("mockstore-scheduler") }

    func start(_ receiver: NotificationReceiver) async throws -> MockStoreHarness {
        try await MockStoreHarness.start(
            dataDirectory: data, extraArguments: ["--notify", receiver.url],
            catalogue: SubscriptionBinaryTests.catalogue)
    }

    func buy(_ store: MockStoreHarness, _ product: String, root: Certificate) async throws -> SignedTransactionPayload {
        let bought = try await store.testStore.buy(product)
        return try verifiedES256Payload(
            try #require(bought.signedTransaction), as: SignedTransactionPayload.self, root: root)
    }

    /// What the receiver got: each notification with its transaction, verified.
    func received(_ receiver: NotificationReceiver, root: Certificate) throws -> [(
        payload: NotificationPayload, transaction: SignedTransactionPayload?
    )] {
        try receiver.bodies.map { body in
            let signed = try JSONDecoder().decode(SignedNotificationBody.self, from: Data(body)).signedPayload
            let payload = try verifiedES256Payload(signed, as: NotificationPayload.self, root: root)
            let transaction = try payload.data?.signedTransactionInfo.map {
                try verifiedES256Payload($0, as: SignedTransactionPayload.self, root: root)
            }
            return (payload, transaction)
        }
    }

    /// Waits, making no request to the store, until the receiver has a notification of `type` (and `subtype`).
    func idleUntil(
        _ receiver: NotificationReceiver, gets type: NotificationType, _ subtype: NotificationSubtype? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await eventually(
            timeout: 300, "the receiver gets \(type) \(subtype?.rawValue ?? "") with the store idle",
            sourceLocation: sourceLocation
        ) {
            try receiver.payloads().contains { $0.notificationType == type && $0.subtype == subtype }
        }
    }
}

extension SubscriptionSchedulerBinaryTests {
    @Test func aRenewalUnderAMonthlyEveryThirtySecondsRateIsNotifiedWithTheStoreIdle() async throws {
        let receiver = try NotificationReceiver()
        let store = try await start(receiver)
        let root = try Certificate(derRepresentation: try await store.get(SandboxAPI.rootCertificate.path()).body)
        _ = try await store.testStore.setTimeRate(.monthlyRenewalEveryThirtySeconds)
        // A week lasts a third of the monthly 30 s at this rate: 10 s of real time.
        let first = try await buy(store, SubscriptionBinaryTests.weekly, root: root)
        let expires = try #require(first.expiresDate)
        #expect(expires - first.purchaseDate == 10 * Self.day)

        try await idleUntil(receiver, gets: .didRenew)
        let renewal = try #require(
            try received(receiver, root: root).first { $0.payload.notificationType == .didRenew })
        let transaction = try #require(renewal.transaction)
        #expect(renewal.payload.signedDate == expires, "dated when it fell due, not when someone asked")
        #expect(transaction.transactionReason == .renewal && transaction.purchaseDate == expires)
        #expect(transaction.originalTransactionId == first.transactionId)
        #expect(renewal.payload.data?.status == .active)
        #expect(try await store.stop() == 0)
    }

    @Test func aFailedRenewalItsGracePeriodItsRetryAndAnExpiryHappenOnTheirOwn() async throws {
        let receiver = try NotificationReceiver()
        let store = try await start(receiver)
        let root = try Certificate(derRepresentation: try await store.get(SandboxAPI.rootCertificate.path()).body)
        _ = try await store.testStore.setBillingRetry(true)
        _ = try await store.testStore.setGracePeriod(true)
        // Bought at real time, so nothing falls due while the test sets up; then a renewal every 2 s.
        let weekly = try await buy(store, SubscriptionBinaryTests.weekly, root: root)
        let monthly = try await buy(store, SubscriptionBinaryTests.proMonthly, root: root)
        _ = try await store.testStore.setAutoRenew(monthly.transactionId, false)
        _ = try await store.testStore.setTimeRate(.oneRenewalEveryTwoSeconds)

        try await idleUntil(receiver, gets: .expired, .billingRetry)
        try await idleUntil(receiver, gets: .expired, .voluntary)
        let told = try received(receiver, root: root).filter {
            [.didFailToRenew, .gracePeriodExpired, .expired].contains($0.payload.notificationType)
        }
        let weeklyEnd = try #require(weekly.expiresDate)
        let news = told.filter { $0.transaction?.originalTransactionId == weekly.transactionId }
        #expect(news.map(\.payload.notificationType) == [.didFailToRenew, .gracePeriodExpired, .expired])
        #expect(news.map(\.payload.subtype) == [.gracePeriod, nil, .billingRetry])
        // At this rate a grace period lasts one renewal (a week, the shortest period) and billing retry two.
        #expect(news.map(\.payload.signedDate) == [weeklyEnd, weeklyEnd + 7 * Self.day, weeklyEnd + 14 * Self.day])
        let pro = told.filter { $0.transaction?.originalTransactionId == monthly.transactionId }
        #expect(pro.map(\.payload.subtype) == [.voluntary])
        #expect(pro.first?.payload.signedDate == monthly.expiresDate, "the monthly expired at its end")
        #expect(try await store.stop() == 0)
    }
}
