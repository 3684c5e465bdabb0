import Foundation
import FoundationNetworking
import Signing
import StoreTestControls
import StoreWire
import Testing

/// Xcode's time rates and large clock advances through the real `mockstore` binary.
@Suite struct TimeRateBinaryTests {
    let base: SubscriptionBinaryTests
    static let day = SubscriptionBinaryTests.day

    init() throws { base = try SubscriptionBinaryTests() }

    @Test func oneRenewalEveryTwoSecondsRenewsAYearlyAndAWeeklySubscriptionAlikeInRealTime() async throws {
        let store = try await base.start()
        let root = try await base.root(store)
        let clock = try await store.testStore.setTimeRate(.oneRenewalEveryTwoSeconds)
        #expect(clock.timeRate == 1005)
        let yearly = try await base.buy(store, SubscriptionBinaryTests.proYearly, root: root)
        let weekly = try await base.buy(store, SubscriptionBinaryTests.weekly, root: root)
        // Every period lasts one renewal (2 s of real time): the catalogue's shortest, a week, of virtual time.
        for each in [yearly, weekly] {
            #expect((each.expiresDate ?? 0) - each.purchaseDate == 7 * Self.day, "\(each.productId)")
            #expect(abs(Double(7 * Self.day) / clock.factor - 2_000) < 1)
        }
        // Waits for the renewals (the store runs them on its own when due), not for a fixed time.
        var renewed: [TestSubscription] = []
        try await eventually("both subscriptions renew") {
            renewed = try await store.testStore.subscriptions()
            return [yearly, weekly].allSatisfy { each in
                renewed.contains {
                    $0.originalTransactionId == each.originalTransactionId && $0.expiresDate > (each.expiresDate ?? 0)
                }
            }
        }
        for each in [yearly, weekly] {
            let state = try #require(renewed.first { $0.originalTransactionId == each.originalTransactionId })
            #expect(state.expiresDate >= (each.expiresDate ?? 0) + 7 * Self.day, "\(each.productId) renewed in 2 s")
        }
        let kinds = try await base.notifications(store, root: root).map(\.payload.notificationType)
        #expect(kinds.filter { $0 == .didRenew }.count >= 2, "\(kinds)")
        #expect(try await store.stop() == 0)
    }

    @Test func aFixedRatesGracePeriodIsOneRenewalAndBillingRetryTwo() async throws {
        let store = try await base.start()
        let root = try await base.root(store)
        _ = try await store.testStore.setTimeRate(.oneRenewalEveryFifteenMinutes)
        _ = try await store.testStore.setBillingRetry(true)
        _ = try await store.testStore.setGracePeriod(true)
        let first = try await base.buy(store, SubscriptionBinaryTests.proMonthly, root: root)
        let expires = try #require(first.expiresDate)
        #expect(expires - first.purchaseDate == 7 * Self.day, "a monthly lasts one renewal too")
        let failed = try await store.testStore.advanceClock(by: .days(7))
        #expect(failed.events?.map(\.notificationType) == [.didFailToRenew])
        let fail = try await #require(try base.notifications(store, root: root).last)
        #expect(fail.payload.subtype == .gracePeriod && fail.renewal.gracePeriodExpiresDate == expires + 7 * Self.day)
        let graceOver = try await store.testStore.advanceClock(by: .days(7))
        #expect(graceOver.events?.map(\.notificationType) == [.gracePeriodExpired])
        let over = try await store.testStore.advanceClock(by: .days(7))
        #expect(over.events?.map(\.notificationType) == [.expired] && over.events?.first?.subtype == .billingRetry)
        #expect(over.events?.first?.date == expires + 14 * Self.day, "billing retry lasts two renewals")
        #expect(try await store.stop() == 0)
    }

    @Test func aScaledRateRenewsAWeeklySubscriptionInAThirdOfTheMonthly() async throws {
        let store = try await base.start()
        let root = try await base.root(store)
        _ = try await store.testStore.setTimeRate(.monthlyRenewalEveryThirtySeconds)
        let weekly = try await base.buy(store, SubscriptionBinaryTests.weekly, root: root)
        let monthly = try await base.buy(store, SubscriptionBinaryTests.proMonthly, root: root)
        #expect((weekly.expiresDate ?? 0) - weekly.purchaseDate == 10 * Self.day, "10 s of 30 s")
        #expect(monthly.offerDiscountType != nil || (monthly.expiresDate ?? 0) - monthly.purchaseDate == 30 * Self.day)
        #expect(try await store.stop() == 0)
    }

    @Test func signaturesVerifyAtTheirSignedDateFiftyYearsOn() async throws {
        let store = try await base.start()
        let root = try await base.root(store)
        let clock = try await store.testStore.advanceClock(by: .years(50))
        let response = try await store.post(DeviceAPI.purchase.path(), json: #"{"productId": "com.example.coins"}"#)
        let body = try response.decoded(PurchaseResponseBody.self)
        let parsed = try CompactJWS.parse(try #require(body.signedTransaction))
        let signedAt = Date(timeIntervalSince1970: Double(clock.now) / 1000)
        try parsed.verifyES256(chain: CertificateChainVerifier(trustedRoot: root), at: signedAt)
        #expect(try await store.stop() == 0)
    }
}
