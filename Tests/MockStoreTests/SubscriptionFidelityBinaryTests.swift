import Foundation
import Signing
import StoreWire
import Testing

/// Subscription behaviours Apple documents, through the real `mockstore` binary: `recentSubscriptionStartDate`
/// across lapses of paid service.
@Suite struct SubscriptionFidelityBinaryTests {
    static let weekly = SubscriptionBinaryTests.weekly

    let base: SubscriptionBinaryTests

    init() throws { base = try SubscriptionBinaryTests() }

    func start(_ extra: [String] = []) throws -> MockStoreHarness {
        try MockStoreHarness(
            dataDirectory: base.data, extraArguments: extra, catalogue: SubscriptionBinaryTests.catalogue)
    }

    /// Lapses the subscription of `product` (expired now), moves the clock on by `lapse`, buys it again and
    /// returns the purchase and the RESUBSCRIBE's `recentSubscriptionStartDate`.
    func resubscribe(_ store: MockStoreHarness, after lapse: String, root: Certificate) async throws -> (
        purchase: SignedTransactionPayload, recentStart: Int64
    ) {
        let expired = try store.control(TestSubscriptionEventRecord.self, "subscription", "expire", Self.weekly)
        #expect(expired.notificationType == "EXPIRED")
        _ = try store.control(TestClockBody.self, "clock", "advance", lapse)
        let again = try await base.buy(store, Self.weekly, root: root)
        let back = try #require(try base.notifications(store, root: root).last)
        #expect(back.payload.notificationType == "SUBSCRIBED" && back.payload.subtype == "RESUBSCRIBE")
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
        let store = try start(environment)
        let root = try await base.root(store)
        let first = try await base.buy(store, Self.weekly, root: root)
        let kept = try await resubscribe(store, after: short, root: root)
        #expect(kept.recentStart == first.purchaseDate, "\(environment): a lapse of \(short) is ignored")
        let renewed = try store.control(TestClockBody.self, "clock", "advance", "P8D")
        #expect(renewed.events?.map(\.notificationType) == ["DID_RENEW"])
        #expect(
            try base.notifications(store, root: root).last?.renewal.recentSubscriptionStartDate == first.purchaseDate)
        let reset = try await resubscribe(store, after: long, root: root)
        #expect(reset.recentStart == reset.purchase.purchaseDate, "\(environment): a lapse of \(long) starts a new run")
        #expect(reset.purchase.originalTransactionId == first.transactionId, "the same subscription all the same")
        #expect(try store.stop() == 0)
    }

    @Test func aRevocationIsALapseFromItsDate() async throws {
        let store = try start()
        let root = try await base.root(store)
        let first = try await base.buy(store, Self.weekly, root: root)
        _ = try store.control(TestTransactionBody.self, "refund", first.transactionId)
        // The week bought runs for days yet: the lapse counts from the refund, not from the end of the period.
        _ = try store.control(TestClockBody.self, "clock", "advance", "PT10M")
        let again = try await base.buy(store, Self.weekly, root: root)
        let back = try #require(try base.notifications(store, root: root).last)
        #expect(back.payload.subtype == "RESUBSCRIBE")
        #expect(back.renewal.recentSubscriptionStartDate == again.purchaseDate)
        #expect(try store.stop() == 0)
    }
}
