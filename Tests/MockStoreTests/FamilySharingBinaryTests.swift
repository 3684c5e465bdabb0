import Foundation
import FoundationNetworking
import Signing
import StoreTestControls
import StoreWire
import Testing

/// Family Sharing of a subscription through the real `mockstore` binary: the store's customer is a family member
/// with whom another member shares a family-shareable auto-renewable.
@Suite struct FamilySharingBinaryTests {
    let base: SubscriptionBinaryTests
    static let yearly = SubscriptionBinaryTests.proYearly  // familyShareable true
    static let monthly = SubscriptionBinaryTests.proMonthly  // familyShareable false

    init() throws { base = try SubscriptionBinaryTests() }

    @Test func aSharedSubscriptionIsTheMembersOwnFamilySharedTransactionsUntilTheRefundRevokesIt() async throws {
        let store = try await base.start()
        let root = try await base.root(store)
        let refused = try await refusal { try await store.testStore.familyShare(Self.monthly) }
        #expect(refused?.message.contains("not family shareable") == true)
        let shared = try await store.testStore.familyShare(Self.yearly)
        #expect(shared.notificationType == .subscribed && shared.subtype == .initialBuy)
        var told = try await #require(try base.notifications(store, root: root).last)
        #expect(told.transaction.inAppOwnershipType == .familyShared && told.transaction.productId == Self.yearly)
        #expect(told.transaction.offerType == nil && told.transaction.price == 99_990, "the purchaser's full period")
        #expect(told.transaction.originalTransactionId == told.transaction.transactionId, "ids of the member's own")
        #expect(
            told.renewal.originalTransactionId == told.transaction.transactionId && told.payload.data?.status == .active
        )
        var entitled = try await base.entitlements(store, root: root)
        #expect(entitled.map(\.inAppOwnershipType) == [.familyShared])
        let own = try await store.post(DeviceAPI.purchase.path(), json: #"{"productId": "\#(Self.monthly)"}"#)
        #expect(own.status == 409, "one subscription per group: the member's own purchase waits")

        let renewed = try await store.testStore.advanceClock(by: .years(1)).events ?? []
        #expect(renewed.map(\.notificationType) == [.didRenew])
        told = try await #require(try base.notifications(store, root: root).last)
        #expect(
            told.transaction.inAppOwnershipType == .familyShared && told.transaction.transactionReason == .renewal)
        #expect(told.transaction.originalTransactionId == shared.originalTransactionId)
        let extend = try await store.request(
            "PUT", ServerAPI.extendRenewalDate.path(.init(originalTransactionId: shared.originalTransactionId)),
            body: Array(#"{"extendByDays": 3, "extendReasonCode": 1, "requestIdentifier": "r1"}"#.utf8),
            headers: try base.token.header())
        try expectError(extend, status: 403, code: .familySharedSubscriptionExtensionIneligible)

        let revoked = try await store.testStore.refund(told.transaction.transactionId)
        #expect(revoked.transaction.revocationType == .familyRevoke)
        told = try await #require(try base.notifications(store, root: root).last)
        #expect(told.payload.notificationType == .revoke && told.payload.subtype == nil)
        #expect(told.transaction.revocationType == .familyRevoke && told.transaction.revocationDate != nil)
        #expect(told.payload.data?.status == .revoked && told.renewal.autoRenewStatus == .off)
        entitled = try await base.entitlements(store, root: root)
        #expect(entitled.isEmpty, "no access once sharing is revoked")
        await #expect(try refusal { try await store.testStore.familyRevoke(Self.yearly) } != nil, "revoked already")

        let bought = try await base.buy(store, Self.monthly, root: root)
        #expect(bought.inAppOwnershipType == .purchased && bought.originalTransactionId == bought.transactionId)
        told = try await #require(try base.notifications(store, root: root).last)
        #expect(told.payload.notificationType == .subscribed && told.payload.subtype == .initialBuy)
        #expect(try await store.stop() == 0)
    }

    @Test func sharingEndsByTheControlAndStartsAgainAsAResubscription() async throws {
        let store = try await base.start()
        let root = try await base.root(store)
        let shared = try await store.testStore.familyShare(Self.yearly)
        await #expect(try refusal { try await store.testStore.familyShare(Self.yearly) } != nil, "in force already")
        let ended = try await store.testStore.familyRevoke(Self.yearly)
        #expect(ended.transaction.transactionId == shared.transactionId && ended.transaction.revocationDate != nil)
        var told = try await #require(try base.notifications(store, root: root).last)
        #expect(told.payload.notificationType == .revoke && told.transaction.inAppOwnershipType == .familyShared)
        let again = try await store.testStore.familyShare(Self.yearly)
        #expect(again.subtype == .resubscribe && again.originalTransactionId == shared.originalTransactionId)
        told = try await #require(try base.notifications(store, root: root).last)
        #expect(told.transaction.inAppOwnershipType == .familyShared && told.transaction.revocationDate == nil)
        let history = try await base.server(
            store,
            ServerAPI.history.target(
                .init(transactionId: shared.originalTransactionId, inAppOwnershipType: .familyShared)))
        #expect(history.status == 200)
        await #expect(try store.control("family-revoke", "nope/x").status == 64)
        await #expect(try refusal { try await store.testStore.familyShare("com.example.none") } != nil)
        #expect(try await store.stop() == 0)
    }
}
