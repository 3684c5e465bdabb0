import Foundation
import FoundationNetworking
import MockStoreTesting
import Signing
import StoreTestControls
import StoreWire
import Testing

/// Each step of a subscription's life through the real `mockstore` binary on an advanced virtual clock: the signed
/// transaction, the renewal info and the notification of each.
@Suite struct SubscriptionBinaryTests {
    static let catalogue = Repository.root + "/Tests/Fixtures/Subscriptions.storekit"
    static let proMonthly = "com.example.pro.monthly"
    static let proYearly = "com.example.pro.yearly"
    static let basic = "com.example.basic.monthly"
    static let weekly = "com.example.news.weekly"
    static let proGroup = "21C0FFEE"
    static let day: Int64 = 86_400_000

    let directory: TemporaryDirectory
    let token: ServerAPIToken
    var data: String { directory.file("data") }

    init() throws {
        directory = try TemporaryDirectory("mockstore-subscriptions")
        token = ServerAPIToken.shared
    }

    func start() async throws -> MockStoreHarness {
        try await MockStoreHarness.start(
            dataDirectory: data, extraArguments: try token.option(in: directory), catalogue: Self.catalogue)
    }

    func root(_ store: MockStoreHarness) async throws -> Certificate {
        try Certificate(derRepresentation: try await store.get(SandboxAPI.rootCertificate.path()).body)
    }

    func buy(_ store: MockStoreHarness, _ product: String, root: Certificate) async throws -> SignedTransactionPayload {
        let response = try await store.post(DeviceAPI.purchase.path(), json: #"{"productId": "\#(product)"}"#)
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        let body = try response.decoded(PurchaseResponseBody.self)
        #expect(body.result == .success)
        return try verifiedES256Payload(
            try #require(body.signedTransaction), as: SignedTransactionPayload.self, root: root)
    }

    struct Told {
        var payload: NotificationPayload
        var transaction: SignedTransactionPayload
        var renewal: RenewalInfoPayload
    }

    /// The notifications made so far, decoded and verified.
    func notifications(_ store: MockStoreHarness, root: Certificate) async throws -> [Told] {
        try await store.testStore.notifications().map { record in
            let payload = try verifiedES256Payload(record.signedPayload, as: NotificationPayload.self, root: root)
            let data = try #require(payload.data)
            return Told(
                payload: payload,
                transaction: try verifiedES256Payload(
                    try #require(data.signedTransactionInfo), as: SignedTransactionPayload.self, root: root),
                renewal: try verifiedES256Payload(
                    try #require(data.signedRenewalInfo), as: RenewalInfoPayload.self, root: root))
        }
    }

    func entitlements(_ store: MockStoreHarness, root: Certificate) async throws -> [SignedTransactionPayload] {
        let body = try await store.get(DeviceAPI.currentEntitlements.path()).decoded(
            SignedTransactionsBody.self)
        return try body.signedTransactions.map {
            try verifiedES256Payload($0, as: SignedTransactionPayload.self, root: root)
        }
    }

    func server(_ store: MockStoreHarness, _ path: String) async throws -> MockStoreHarness.Response {
        try await store.request("GET", path, headers: try token.header())
    }
}

extension SubscriptionBinaryTests {
    @Test func aPurchaseRenewsOnTheAdvancedClockThenExpiresWithAutoRenewOffAndResubscribes() async throws {
        let store = try await start()
        let root = try await root(store)
        let first = try await buy(store, Self.proMonthly, root: root)
        #expect(first.type == .autoRenewableSubscription && first.transactionReason == .purchase)
        #expect(
            first.subscriptionGroupIdentifier == Self.proGroup && first.originalTransactionId == first.transactionId)
        #expect(
            first.offerType == .introductoryOffer && first.offerDiscountType == .payAsYouGo, "the introductory offer")
        let expires = try #require(first.expiresDate)
        #expect(expires > first.purchaseDate + 27 * Self.day && expires <= first.purchaseDate + 31 * Self.day)
        var told = try await notifications(store, root: root)
        #expect(told.map(\.payload.notificationType) == [.subscribed] && told[0].payload.subtype == .initialBuy)
        #expect(told[0].payload.data?.status == .active)
        #expect(told[0].renewal.autoRenewStatus == .on && told[0].renewal.renewalDate == expires)
        #expect(told[0].renewal.autoRenewProductId == Self.proMonthly && told[0].renewal.environment == .sandbox)
        #expect(told[0].renewal.recentSubscriptionStartDate == first.purchaseDate)
        #expect(told[0].renewal.appTransactionId == first.appTransactionId && told[0].renewal.currency == "USD")
        #expect(try await entitlements(store, root: root).map(\.transactionId) == [first.transactionId])

        let clock = try await store.testStore.advanceClock(by: .months(1))
        #expect(clock.events?.map(\.notificationType) == [.didRenew])
        told = try await notifications(store, root: root)
        let renewal = try #require(told.last)
        #expect(renewal.payload.notificationType == .didRenew && renewal.payload.subtype == nil)
        #expect(renewal.transaction.transactionReason == .renewal)
        #expect(renewal.transaction.originalTransactionId == first.transactionId)
        #expect(renewal.transaction.purchaseDate == expires, "the new period starts where the last ended")
        #expect(renewal.transaction.webOrderLineItemId != first.webOrderLineItemId)
        #expect((renewal.transaction.expiresDate ?? 0) > expires + 27 * Self.day)
        #expect(renewal.payload.signedDate == expires, "dated when it happened")

        let off = try await store.testStore.setAutoRenew(first.transactionId, false)
        #expect(off.notificationType == .didChangeRenewalStatus && off.subtype == .autoRenewDisabled)
        await #expect(try notifications(store, root: root).last?.renewal.autoRenewStatus == .off)
        let ended = try await store.testStore.advanceClock(by: .months(2))
        #expect(ended.events?.map(\.notificationType) == [.expired] && ended.events?.first?.subtype == .voluntary)
        let expiry = try await #require(try notifications(store, root: root).last)
        #expect(expiry.payload.data?.status == .expired && expiry.renewal.expirationIntent == .customerCancelled)
        #expect(try await entitlements(store, root: root).isEmpty)

        let again = try await buy(store, Self.proYearly, root: root)
        #expect(again.originalTransactionId == first.transactionId)
        #expect(again.offerType == nil, "the introductory offer was had in this group")
        let back = try await #require(try notifications(store, root: root).last)
        #expect(back.payload.notificationType == .subscribed && back.payload.subtype == .resubscribe)
        let eligibility = try await store.get(DeviceAPI.introOfferEligibility.path(.init(groupId: Self.proGroup)))
        #expect(try eligibility.decoded(IntroOfferEligibilityBody.self).isEligibleForIntroOffer == false)
        #expect(try await store.stop() == 0)
    }

    @Test func anUpgradeIsImmediateAndADowngradeWaitsForTheRenewal() async throws {
        let store = try await start()
        let root = try await root(store)
        let basic = try await buy(store, Self.basic, root: root)
        #expect(basic.offerDiscountType == .payUpFront)
        let upgraded = try await buy(store, Self.proMonthly, root: root)
        #expect(upgraded.originalTransactionId == basic.transactionId && upgraded.productId == Self.proMonthly)
        #expect(upgraded.offerType == nil)
        let upgrade = try await #require(try notifications(store, root: root).last)
        #expect(upgrade.payload.notificationType == .didChangeRenewalPref && upgrade.payload.subtype == .upgrade)
        let history = try await server(
            store,
            ServerAPI.history.target(
                .init(transactionId: basic.transactionId, subscriptionGroupIdentifier: [Self.proGroup])))
        let signed = try history.decoded(HistoryResponseBody.self).signedTransactions
        let old = try signed.map { try verifiedES256Payload($0, as: SignedTransactionPayload.self, root: root) }
            .first { $0.transactionId == basic.transactionId }
        #expect(old?.isUpgraded == true && old?.revocationDate != nil, "the replaced period is revoked")
        #expect(try await entitlements(store, root: root).map(\.productId) == [Self.proMonthly])

        let downgrade = try await store.testStore.changeSubscription(Self.proMonthly, to: Self.basic)
        #expect(downgrade.notificationType == .didChangeRenewalPref && downgrade.subtype == .downgrade)
        let pending = try await #require(try notifications(store, root: root).last)
        #expect(pending.renewal.autoRenewProductId == Self.basic && pending.renewal.productId == Self.proMonthly)
        #expect(try await entitlements(store, root: root).map(\.productId) == [Self.proMonthly], "not yet")
        try await store.testStore.advanceClock(by: .months(1))
        let renewed = try await #require(try notifications(store, root: root).last)
        #expect(renewed.payload.notificationType == .didRenew && renewed.transaction.productId == Self.basic)
        #expect(try await entitlements(store, root: root).map(\.productId) == [Self.basic])
        #expect(try await store.stop() == 0)
    }

    @Test func aRefundEndsTheEntitlementAndStatusesAreFiltered() async throws {
        let store = try await start()
        let root = try await root(store)
        let weekly = try await buy(store, Self.weekly, root: root)
        _ = try await buy(store, Self.proYearly, root: root)
        let renewed = try await store.testStore.renew(Self.weekly)
        #expect(renewed.notificationType == .didRenew)
        let latest = try #require(renewed.transactionId)
        try await store.testStore.refund(latest)
        let refund = try await #require(try notifications(store, root: root).dropLast().last)
        #expect(refund.payload.notificationType == .refund && refund.payload.data?.status == .revoked)
        let disabled = try await #require(try notifications(store, root: root).last)
        #expect(disabled.payload.notificationType == .didChangeRenewalStatus, "auto-renew off after a refund")
        #expect(try await entitlements(store, root: root).map(\.productId) == [Self.proYearly])

        let all = try await server(
            store, ServerAPI.subscriptionStatuses.target(.init(transactionId: weekly.transactionId)))
        #expect(all.status == 200)
        let statuses = try all.decoded(StatusResponseBody.self)
        #expect(statuses.data.count == 2 && statuses.bundleId == "ai.voicedebrief.app")
        let revoked = try await server(
            store, ServerAPI.subscriptionStatuses.target(.init(transactionId: weekly.transactionId, status: ["5"])))
        let items = try revoked.decoded(StatusResponseBody.self).data.flatMap(\.lastTransactions)
        #expect(items.map(\.originalTransactionId) == [weekly.transactionId] && items.map(\.status) == [.revoked])
        let info = try verifiedES256Payload(
            try #require(items.first).signedRenewalInfo, as: RenewalInfoPayload.self, root: root)
        #expect(info.productId == Self.weekly && info.autoRenewStatus == .off)
        let both = try await server(
            store,
            ServerAPI.subscriptionStatuses.target(.init(transactionId: weekly.transactionId, status: ["1", "2"])))
        #expect(try both.decoded(StatusResponseBody.self).data.map(\.subscriptionGroupIdentifier) == [Self.proGroup])
        try expectError(
            try await server(
                store, ServerAPI.subscriptionStatuses.target(.init(transactionId: weekly.transactionId, status: ["9"]))),
            status: 400,
            code: .invalidStatus)
        try expectError(
            try await server(store, ServerAPI.subscriptionStatuses.target(.init(transactionId: "9999999"))),
            status: 404,
            code: .transactionIdNotFound)
        let byApp = try await server(
            store,
            ServerAPI.subscriptionStatuses.target(.init(transactionId: "\(try #require(weekly.appTransactionId))"))
        )
        #expect(try byApp.decoded(StatusResponseBody.self).data.count == 2, "the app transaction id finds the customer")

        // A refund request for a subscription: CONSUMPTION_REQUEST with the renewal info and status, then declined.
        let subscriptions = try await store.testStore.subscriptions()
        let yearly = try #require(subscriptions.first { $0.productId == Self.proYearly }?.latestTransactionId)
        try await store.testStore.requestRefund(yearly)
        let request = try await #require(try notifications(store, root: root).dropLast().last)
        #expect(request.payload.notificationType == .consumptionRequest && request.payload.data?.status == .active)
        #expect(request.payload.data?.consumptionRequestReason == .unintendedPurchase)
        try await store.testStore.declineRefund(yearly)
        await #expect(try notifications(store, root: root).last?.payload.notificationType == .refundDeclined)

        let expired = try await store.testStore.expire(Self.proYearly)
        #expect(expired.notificationType == .expired && expired.subtype == .voluntary)
        #expect(try await entitlements(store, root: root).isEmpty)
        let status = try await store.get(DeviceAPI.subscriptionStatus.path(.init(groupId: Self.proGroup)))
        #expect(try status.decoded(SubscriptionStatusesBody.self).statuses.map(\.state) == [.expired])
        #expect(try await store.stop() == 0)
    }

    @Test func anApprovedAskToBuySubscriptionIsSubscribedThenAndReachesTheFeed() async throws {
        let store = try await start()
        let root = try await root(store)
        _ = try await store.testStore.setAskToBuy(true)
        let response = try await store.post(DeviceAPI.purchase.path(), json: #"{"productId": "\#(Self.weekly)"}"#)
        let pending = try response.decoded(PurchaseResponseBody.self)
        #expect(pending.result == .pending)
        let nothingYet = try await entitlements(store, root: root)
        await #expect(try notifications(store, root: root).isEmpty && nothingYet.isEmpty)
        let start = try await store.get(DeviceAPI.updates.path()).decoded(TransactionUpdatesBody.self)
        try await store.testStore.advanceClock(by: .days(1))
        let approved = try await store.testStore.approve(try #require(pending.transactionId))
        let payload = try verifiedES256Payload(
            try #require(approved.signedTransaction), as: SignedTransactionPayload.self, root: root)
        #expect(
            payload.transactionId == pending.transactionId && payload.originalTransactionId == pending.transactionId)
        #expect(
            payload.expiresDate == payload.purchaseDate + 7 * Self.day && payload.subscriptionGroupIdentifier != nil)
        let told = try await notifications(store, root: root)
        #expect(told.map(\.payload.notificationType) == [.subscribed] && told[0].payload.subtype == .initialBuy)
        #expect(try await entitlements(store, root: root).map(\.transactionId) == [payload.transactionId])
        let feed = try await store.get(DeviceAPI.updates.target(.init(after: start.cursor)))
            .decoded(TransactionUpdatesBody.self)
        #expect(feed.signedTransactions.count == 1, "the approved subscription reaches the app as an update")
        #expect(try await store.stop() == 0)
    }

    @Test func theClockIsShownMovedAndRatedAndARestartKeepsIt() async throws {
        var store = try await start()
        let shown = try await store.testStore.clock()
        #expect(shown.rate == .realTime && shown.timeRate == 0 && shown.factor == 1)
        let moved = try await store.testStore.advanceClock(by: .days(400))
        #expect(moved.now >= shown.now + 400 * Self.day)
        let rated = try await store.testStore.setTimeRate(.monthlyRenewalEveryHour)
        #expect(rated.rate == .monthlyRenewalEveryHour && rated.timeRate == 10 && rated.factor == 720)
        await #expect(
            try store.testStore.setTimeRate(named: "1005").rate == .oneRenewalEveryTwoSeconds)
        for bad in [["advance", "-P1M"], ["advance", "garbage"], ["advance", "P0D"], ["rate", "fast"], ["advance"]] {
            let outcome = try await MockStoreHarness.controlInProcess(
                ["control", "--url", store.baseURL, "clock"] + bad)
            #expect(outcome.status == 64, "\(bad): \(outcome.stderr)")
            #expect(!outcome.stderr.isEmpty && !outcome.stderr.contains("Error"), "\(outcome.stderr)")
        }
        #expect(try await store.stop() == 0)
        store = try await start()
        let after = try await store.testStore.clock()
        #expect(after.rate == .oneRenewalEveryTwoSeconds && after.now >= moved.now)
        #expect(try await store.stop() == 0)
    }
}
