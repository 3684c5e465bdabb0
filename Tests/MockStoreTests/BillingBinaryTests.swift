import Foundation
import FoundationNetworking
import Signing
import StoreTestControls
import StoreWire
import Testing

/// Billing, price increases, refund reversals and renewal-date extensions of a subscription through the real
/// `mockstore` binary on an advanced virtual clock: each step's notification, signed transaction and renewal info.
@Suite struct BillingBinaryTests {
    let base: SubscriptionBinaryTests
    static let weekly = SubscriptionBinaryTests.weekly
    static let day = SubscriptionBinaryTests.day

    init() throws { base = try SubscriptionBinaryTests() }

    /// The notifications made so far, verified: payload, and the transaction and renewal info when it has data.
    func told(_ store: MockStoreHarness, root: Certificate) async throws -> [(
        payload: NotificationPayload, transaction: SignedTransactionPayload?, renewal: RenewalInfoPayload?
    )] {
        try await store.testStore.notifications().map { record in
            let payload = try verifiedES256Payload(record.signedPayload, as: NotificationPayload.self, root: root)
            return (
                payload,
                try payload.data?.signedTransactionInfo.map {
                    try verifiedES256Payload($0, as: SignedTransactionPayload.self, root: root)
                },
                try payload.data?.signedRenewalInfo.map {
                    try verifiedES256Payload($0, as: RenewalInfoPayload.self, root: root)
                }
            )
        }
    }

    func statuses(_ store: MockStoreHarness, _ id: String) async throws -> [SubscriptionStatus] {
        try await base.server(store, ServerAPI.subscriptionStatuses.target(.init(transactionId: id))).decoded(
            StatusResponseBody.self
        ).data
            .flatMap(\.lastTransactions).map(\.status)
    }

    @Test func aFailedRenewalEntersBillingRetryAndResolvingItRecovers() async throws {
        let store = try await base.start()
        let root = try await base.root(store)
        let first = try await base.buy(store, Self.weekly, root: root)
        let expires = try #require(first.expiresDate)
        _ = try await store.testStore.setBillingRetry(true)
        let failed = try await store.testStore.advanceClock(by: .days(8))
        #expect(failed.events?.map(\.notificationType) == [.didFailToRenew] && failed.events?[0].subtype == nil)
        let fail = try await #require(try told(store, root: root).last)
        #expect(fail.payload.notificationType == .didFailToRenew && fail.payload.subtype == nil)
        #expect(fail.payload.data?.status == .billingRetry && fail.renewal?.isInBillingRetryPeriod == true)
        #expect(fail.renewal?.gracePeriodExpiresDate == nil && fail.payload.signedDate == expires)
        #expect(try await base.entitlements(store, root: root).isEmpty, "no access in billing retry")
        #expect(try await statuses(store, first.transactionId) == [.billingRetry])
        let messages = try await store.get(DeviceAPI.messages.path()).decoded(StoreMessagesBody.self)
        #expect(messages.messages.isEmpty, "billing-issue messages are off by default")
        _ = try await store.testStore.setBillingIssueMessages(true)
        #expect(
            try await store.get(DeviceAPI.messages.path()).decoded(StoreMessagesBody.self).messages.map(\.reason) == [
                .billingIssue
            ])

        _ = try await store.testStore.setBillingRetry(false)
        let resolved = try await store.testStore.resolve(first.transactionId)
        let recovery = try await #require(try told(store, root: root).last)
        #expect(recovery.payload.notificationType == .didRenew && recovery.payload.subtype == .billingRecovery)
        #expect(
            recovery.transaction?.transactionReason == .renewal
                && recovery.transaction?.transactionId == resolved.transaction.transactionId)
        #expect((recovery.transaction?.purchaseDate ?? 0) > expires, "after the grace-less retry the period starts now")
        #expect(recovery.renewal?.isInBillingRetryPeriod == false && recovery.payload.data?.status == .active)
        #expect(
            try await base.entitlements(store, root: root).map(\.transactionId) == [resolved.transaction.transactionId])
        let resolveAgain = try await refusal { try await store.testStore.recoverBilling(first.transactionId) }
        #expect(resolveAgain != nil, "nothing to recover any more")
        #expect(try await store.stop() == 0)
    }

    @Test func aGracePeriodKeepsAccessThenExpiresThenBillingRetryGivesUpAfter60Days() async throws {
        let store = try await base.start()
        let root = try await base.root(store)
        _ = try await store.testStore.setBillingRetry(true)
        _ = try await store.testStore.setGracePeriod(true)
        let first = try await base.buy(store, Self.weekly, root: root)
        let expires = try #require(first.expiresDate)
        _ = try await store.testStore.advanceClock(by: .days(8))
        let grace = try await #require(try told(store, root: root).last)
        #expect(grace.payload.notificationType == .didFailToRenew && grace.payload.subtype == .gracePeriod)
        #expect(grace.payload.data?.status == .billingGracePeriod && grace.renewal?.isInBillingRetryPeriod == true)
        #expect(grace.renewal?.gracePeriodExpiresDate == expires + 6 * Self.day, "a weekly subscription: 6 days")
        #expect(try await base.entitlements(store, root: root).map(\.transactionId) == [first.transactionId])
        #expect(try await statuses(store, first.transactionId) == [.billingGracePeriod])

        let over = try await store.testStore.advanceClock(by: .days(7))
        #expect(over.events?.map(\.notificationType) == [.gracePeriodExpired])
        await #expect(try told(store, root: root).last?.payload.data?.status == .billingRetry)
        #expect(try await base.entitlements(store, root: root).isEmpty)

        let end = try await store.testStore.advanceClock(by: .days(60))
        #expect(end.events?.map(\.notificationType) == [.expired] && end.events?[0].subtype == .billingRetry)
        let expired = try await #require(try told(store, root: root).last)
        #expect(expired.payload.signedDate == expires + 60 * Self.day, "Apple retries for 60 days")
        #expect(expired.payload.data?.status == .expired && expired.renewal?.expirationIntent == .billingError)
        #expect(expired.renewal?.isInBillingRetryPeriod == false)
        #expect(try await store.stop() == 0)
    }

    @Test func aPriceIncreaseWaitsForConsentRenewsAtTheNewPriceOrExpiresWhenDeclined() async throws {
        let store = try await base.start()
        let root = try await base.root(store)
        let first = try await base.buy(store, Self.weekly, root: root)
        #expect(first.price == 1_990)
        let pending = try await store.testStore.increasePrice(first.transactionId)
        #expect(pending.notificationType == .priceIncrease && pending.subtype == .pending)
        var last = try await #require(try told(store, root: root).last)
        #expect(last.renewal?.priceIncreaseStatus == .customerHasNotResponded && last.renewal?.renewalPrice == 2_190)
        #expect(
            try await store.get(DeviceAPI.messages.path()).decoded(StoreMessagesBody.self).messages.map(\.reason) == [
                .priceIncreaseConsent
            ])
        let accepted = try await store.testStore.consentToPriceIncrease(first.transactionId)
        #expect(accepted.notificationType == .priceIncrease && accepted.subtype == .accepted)
        await #expect(
            try told(store, root: root).last?.renewal?.priceIncreaseStatus
                == .customerConsentedOrWasNotifiedWithoutNeedingConsent)
        _ = try await store.testStore.advanceClock(by: .days(8))
        last = try await #require(try told(store, root: root).last)
        #expect(last.payload.notificationType == .didRenew && last.transaction?.price == 2_190, "the new price")

        let again = try await store.testStore.increasePrice(Self.weekly, to: 2990)
        #expect(again.subtype == .pending)
        let declined = try await store.testStore.declinePriceIncrease(Self.weekly)
        #expect(declined.notificationType == .didChangeRenewalStatus && declined.subtype == .autoRenewDisabled)
        let ended = try await store.testStore.advanceClock(by: .days(8))
        #expect(ended.events?.map(\.notificationType) == [.expired] && ended.events?[0].subtype == .priceIncrease)
        await #expect(
            try told(store, root: root).last?.renewal?.expirationIntent == .customerDidNotConsentToPriceIncrease)
        await #expect(try refusal { try await store.testStore.consentToPriceIncrease(first.transactionId) } != nil)
        #expect(try await store.stop() == 0)
    }

    @Test func aProductOffSaleExpiresAndARefundReversalGivesAccessBack() async throws {
        let store = try await base.start()
        let root = try await base.root(store)
        let first = try await base.buy(store, Self.weekly, root: root)
        _ = try await store.testStore.refund(first.transactionId)
        await #expect(try told(store, root: root).last?.payload.data?.status == .revoked)
        #expect(try await base.entitlements(store, root: root).isEmpty)
        _ = try await store.testStore.reverseRefund(first.transactionId)
        let reversed = try await #require(try told(store, root: root).last)
        #expect(reversed.payload.notificationType == .refundReversed && reversed.payload.data?.status == .active)
        #expect(reversed.transaction?.revocationDate == nil && reversed.renewal?.autoRenewStatus == .on)
        #expect(try await base.entitlements(store, root: root).map(\.transactionId) == [first.transactionId])

        _ = try await store.testStore.setForSale(Self.weekly, false)
        let ended = try await store.testStore.advanceClock(by: .days(8))
        #expect(
            ended.events?.map(\.notificationType) == [.expired] && ended.events?[0].subtype == .productNotForSale)
        await #expect(try told(store, root: root).last?.renewal?.expirationIntent == .productNotAvailable)
        #expect(try await store.stop() == 0)
    }

    func put(_ store: MockStoreHarness, _ path: String, _ json: String) async throws -> MockStoreHarness.Response {
        try await store.request("PUT", path, body: Array(json.utf8), headers: try base.token.header())
    }

    func post(_ store: MockStoreHarness, _ path: String, _ json: String) async throws -> MockStoreHarness.Response {
        try await store.request("POST", path, body: Array(json.utf8), headers: try base.token.header())
    }

    @Test func renewalDatesAreExtendedOneAtATimeAndForAllWithApplesLimitsAndNotifications() async throws {
        let store = try await base.start()
        let root = try await base.root(store)
        let first = try await base.buy(store, Self.weekly, root: root)
        let expires = try #require(first.expiresDate)
        let path = ServerAPI.extendRenewalDate.path(.init(originalTransactionId: first.transactionId))
        let request = #"{"extendByDays": 10, "extendReasonCode": 3, "requestIdentifier": "outage-1"}"#
        let answer = try await put(store, path, request).decoded(ExtendRenewalDateResponseBody.self)
        #expect(answer.success && answer.effectiveDate == expires + 10 * Self.day)
        #expect(
            answer.originalTransactionId == first.transactionId && answer.webOrderLineItemId == first.webOrderLineItemId
        )
        let extended = try await #require(try told(store, root: root).last)
        #expect(
            extended.payload.notificationType == .renewalExtended
                && extended.transaction?.expiresDate == answer.effectiveDate)
        #expect(extended.renewal?.renewalDate == answer.effectiveDate)
        let same = try await put(store, path, request).decoded(ExtendRenewalDateResponseBody.self)
        #expect(same.effectiveDate == answer.effectiveDate, "the same request identifier extends nothing more")

        try expectError(
            try await put(store, path, #"{"extendByDays": 91, "extendReasonCode": 0, "requestIdentifier": "x"}"#),
            status: 400, code: .invalidExtendByDays)
        try expectError(
            try await put(store, path, #"{"extendByDays": 1, "extendReasonCode": 9, "requestIdentifier": "x"}"#),
            status: 400, code: .invalidExtendReasonCode)
        try expectError(
            try await put(store, path, #"{"extendByDays": 1, "extendReasonCode": 0}"#), status: 400,
            code: .invalidRequestIdentifier)
        try expectError(try await put(store, path, "{"), status: 400, code: .generalBadRequest)
        try expectError(
            try await put(store, ServerAPI.extendRenewalDate.path(.init(originalTransactionId: "abc")), request),
            status: 400, code: .invalidOriginalTransactionId)
        try expectError(
            try await put(store, ServerAPI.extendRenewalDate.path(.init(originalTransactionId: "999")), request),
            status: 404, code: .originalTransactionIdNotFound)
        #expect(try await store.request("PUT", path, body: Array(request.utf8)).status == 401)

        let second = try await put(
            store, path, #"{"extendByDays": 1, "extendReasonCode": 1, "requestIdentifier": "b"}"#)
        #expect(second.status == 200)
        // Apple lists a third extension in 365 days as SubscriptionExtensionIneligible.
        try expectError(
            try await put(store, path, #"{"extendByDays": 1, "extendReasonCode": 1, "requestIdentifier": "c"}"#),
            status: 403, code: .subscriptionExtensionIneligible)

        let mass =
            #"{"extendByDays": 3, "extendReasonCode": 0, "requestIdentifier": "9a1e3a8c-4c55-4f0e-9a53-3b0b6f4a1d11", "productId": "\#(Self.weekly)", "storefrontCountryCodes": ["USA"]}"#
        let taken = try await post(store, ServerAPI.massExtendRenewalDate.path(), mass)
        #expect(
            try taken.decoded(MassExtendRenewalDateResponseBody.self).requestIdentifier
                == "9a1e3a8c-4c55-4f0e-9a53-3b0b6f4a1d11")
        let statusPath = ServerAPI.massExtensionStatus.path(
            .init(productId: Self.weekly, requestIdentifier: "9a1e3a8c-4c55-4f0e-9a53-3b0b6f4a1d11"))
        let pending = try await base.server(store, statusPath).decoded(MassExtendRenewalDateStatusResponseBody.self)
        #expect(!pending.complete && pending.completeDate == nil && pending.succeededCount == nil, "taken, not run")
        await #expect(try told(store, root: root).last?.payload.notificationType != .renewalExtension)
        _ = try await store.testStore.advanceClock(by: .hours(1))
        let status = try await base.server(store, statusPath).decoded(MassExtendRenewalDateStatusResponseBody.self)
        #expect(status.complete && status.succeededCount == 0 && status.failedCount == 1, "two extensions this year")
        let notices = try await told(store, root: root).suffix(2)
        #expect(notices.map(\.payload.subtype) == [.failure, .summary])
        let summary = try #require(notices.last?.payload.summary)
        #expect(notices.last?.payload.data == nil && summary.productId == Self.weekly && summary.failedCount == 1)
        #expect(summary.storefrontCountryCodes == ["USA"] && summary.bundleId == "ai.voicedebrief.app")
        try expectError(
            try await base.server(
                store, ServerAPI.massExtensionStatus.path(.init(productId: Self.weekly, requestIdentifier: "unknown"))),
            status: 404, code: .statusRequestNotFound)
        try expectError(
            try await post(
                store, ServerAPI.massExtendRenewalDate.path(),
                #"{"extendByDays": 3, "extendReasonCode": 0, "requestIdentifier": "r", "productId": "nope"}"#),
            status: 400, code: .invalidProductId)
        try expectError(
            try await post(
                store, ServerAPI.massExtendRenewalDate.path(),
                #"{"extendByDays": 3, "extendReasonCode": 0, "requestIdentifier": "r", "productId": "\#(Self.weekly)", "storefrontCountryCodes": ["ZZZ"]}"#
            ),
            status: 400, code: .invalidStorefrontCountryCode)
        #expect(try await store.stop() == 0)
    }

    @Test func aFreeTrialAndAnExpiredSubscriptionCannotBeExtendedButAMassExtensionReachesTheEligible() async throws {
        let store = try await base.start()
        let root = try await base.root(store)
        let trial = try await base.buy(store, SubscriptionBinaryTests.proYearly, root: root)
        #expect(trial.offerDiscountType == .freeTrial)
        try expectError(
            try await put(
                store, ServerAPI.extendRenewalDate.path(.init(originalTransactionId: trial.transactionId)),
                #"{"extendByDays": 5, "extendReasonCode": 0, "requestIdentifier": "t"}"#),
            status: 403, code: .subscriptionExtensionIneligible)
        let weekly = try await base.buy(store, Self.weekly, root: root)
        let mass =
            #"{"extendByDays": 2, "extendReasonCode": 1, "requestIdentifier": "all-1", "productId": "\#(Self.weekly)"}"#
        #expect(try await post(store, ServerAPI.massExtendRenewalDate.path(), mass).status == 200)
        _ = try await store.testStore.advanceClock(by: .hours(1))
        let notices = try await told(store, root: root).suffix(2)
        #expect(notices.map(\.payload.notificationType) == [.renewalExtended, .renewalExtension])
        #expect(notices.first?.transaction?.expiresDate == (weekly.expiresDate ?? 0) + 2 * Self.day)
        #expect(notices.last?.payload.summary?.succeededCount == 1)
        _ = try await store.testStore.expire(weekly.transactionId)
        try expectError(
            try await put(
                store, ServerAPI.extendRenewalDate.path(.init(originalTransactionId: weekly.transactionId)),
                #"{"extendByDays": 5, "extendReasonCode": 0, "requestIdentifier": "late"}"#),
            status: 403, code: .subscriptionExtensionIneligible)
        #expect(try await store.stop() == 0)
    }
}
