import Foundation
import Signing
import StoreTestControls
import StoreWire
import Testing

@testable import MockStoreServer
@testable import StoreKitCatalogue

/// Random billing histories through the store (seeded, deterministic): billing failure with and without a grace
/// period, the grace period's end, recovery, the end of billing retry, price increases with consent or declined,
/// on one weekly subscription. After every step the entitlement, the subscription's state, the history's latest
/// transaction and the step's notifications agree with an independent model of Apple's rules.
@Suite struct SubscriptionBillingHistoryModelTests {
    static let seeds: [UInt64] = [0xB111_0001, 0xB111_0002, 0xB111_0003, 0xB111_0004, 0xB111_0005]
    static let steps = 80
    static let product = "com.example.news.weekly"
    static let day: Int64 = 86_400_000
    static let week = 7 * day

    enum Status: Int { case active = 1, expired = 2, retry = 3, grace = 4 }

    struct Model {
        var bought = false
        var usedIntro = false
        var status = Status.expired
        var expires: Int64 = 0
        var graceEnd: Int64?
        var autoRenew = true
        var pricePending = false
        var retryOn = false
        var graceOn = false
    }

    typealias Expected = SubscriptionHistoryModelTests.Expected
    let history: SubscriptionHistoryModelTests

    init() throws { history = try SubscriptionHistoryModelTests() }

    @Test(arguments: seeds) func randomBillingHistoriesAgreeAtEveryStep(seed: UInt64) throws {
        let directory = try TemporaryDirectory()
        let store = MockStore(
            configuration: .init(
                catalogue: history.catalogue, bundleId: "ai.voicedebrief.app",
                signer: JWSTransactionSigner.hs256(secret: SubscriptionHistoryModelTests.secret),
                clock: ManualClock(fixedDate)),
            database: try TransactionStore(path: directory.file("store.sqlite")))
        defer { try? store.close() }
        var random = SeededRandom(seed: seed)
        var model = Model()
        var kinds: Set<String> = []
        for step in 0..<Self.steps {
            let before = try store.notifications.notificationRecords().notifications.count
            let now = store.nowMilliseconds
            let action = random.pick([
                "buy", "retry", "retry", "grace", "recover", "recover", "increase", "consent", "decline", "auto",
                "advance", "advance", "advance",
            ])
            let context = "seed \(seed.seedText) step \(step) \(action)"
            var expected: [Expected] = []
            let inForce = [.active, .grace, .retry].contains(model.status)
            switch action {
            case "buy" where !inForce:
                _ = try store.purchases.purchase(PurchaseRequestBody(productId: Self.product))
                let intro = !model.usedIntro && history.details(Self.product).introductoryOffer != nil
                expected = [.init(type: .subscribed, subtype: model.bought ? .resubscribe : .initialBuy)]
                model = Model(
                    bought: true, usedIntro: model.usedIntro || intro, status: .active,
                    expires: history.firstEnd(Self.product, at: now, intro: intro), retryOn: model.retryOn,
                    graceOn: model.graceOn)
            case "retry", "grace":
                let on = random.chance(0.5)
                let update =
                    action == "retry"
                    ? TestBillingSettingsUpdate(billingRetryOnRenewal: on)
                    : TestBillingSettingsUpdate(gracePeriodEnabled: on)
                _ = try store.billingSettings.updateBillingSettings(update)
                if action == "retry" { model.retryOn = on } else { model.graceOn = on }
            case "recover":
                guard model.status == .grace || model.status == .retry else {
                    if model.bought {
                        #expect(throws: MockStoreError.self, "\(context)") {
                            try store.billing.recoverBilling(Self.product)
                        }
                    }
                    continue
                }
                _ = try store.billing.recoverBilling(Self.product)
                expected = [.init(type: .didRenew, subtype: .billingRecovery)]
                // In the grace period the renewal date stays; after it, the new period starts now.
                model.expires = (model.status == .grace ? model.expires : now) + Self.week
                model.status = .active
                model.graceEnd = nil
            case "increase" where inForce:
                _ = try store.billing.requestPriceIncrease(Self.product, TestPriceIncreaseRequest(needsConsent: true))
                expected = [.init(type: .priceIncrease, subtype: .pending)]
                model.pricePending = true
            case "consent" where inForce && model.pricePending:
                _ = try store.billing.consentToPriceIncrease(Self.product)
                expected = [.init(type: .priceIncrease, subtype: .accepted)]
                model.pricePending = false
                model.autoRenew = true
            case "decline" where inForce && model.pricePending:
                _ = try store.billing.declinePriceIncrease(Self.product)
                expected = [.init(type: .didChangeRenewalStatus, subtype: .autoRenewDisabled)]
                model.autoRenew = false
            case "auto" where model.status == .active:
                let on = random.chance(0.5)
                _ = try store.subscriptions.setAutoRenew(Self.product, enabled: on)
                if on != model.autoRenew {
                    expected = [
                        .init(
                            type: .didChangeRenewalStatus,
                            subtype: on ? .autoRenewEnabled : .autoRenewDisabled)
                    ]
                    model.autoRenew = on
                }
            case "advance":
                let duration = random.pick(["P3D", "P5D", "P1W", "P10D", "P1M", "P2M"])
                let target = try #require(ClockDuration(iso8601: duration)?.added(to: now))
                _ = try store.clockControls.advanceClock(by: duration)
                expected = Self.simulate(&model, until: target)
            default:
                continue
            }
            kinds.formUnion(expected.map(\.description))
            try check(store, model, expected: expected, since: before, context: context)
        }
        #expect(kinds.count >= 5, "seed \(seed.seedText): a history of several kinds, \(kinds.sorted())")
    }

    /// What the clock does by `target`, in the model: Apple's order of renewal, failure, grace and retry ends.
    static func simulate(_ model: inout Model, until target: Int64) -> [Expected] {
        var events: [Expected] = []
        while true {
            switch model.status {
            case .active where model.expires <= target:
                if model.pricePending {
                    events.append(.init(type: .expired, subtype: .priceIncrease))
                    model.status = .expired
                } else if !model.autoRenew {
                    events.append(.init(type: .expired, subtype: .voluntary))
                    model.status = .expired
                } else if model.retryOn {
                    events.append(.init(type: .didFailToRenew, subtype: model.graceOn ? .gracePeriod : nil))
                    model.status = model.graceOn ? .grace : .retry
                    model.graceEnd = model.graceOn ? model.expires + 6 * day : nil
                } else {
                    events.append(.init(type: .didRenew, subtype: nil))
                    model.expires += week
                }
            case .grace where (model.graceEnd ?? .max) <= target:
                events.append(.init(type: .gracePeriodExpired, subtype: nil))
                model.status = .retry
            case .retry where model.expires + 60 * day <= target:
                events.append(.init(type: .expired, subtype: .billingRetry))
                model.status = .expired
            default:
                return events
            }
        }
    }

    func check(_ store: MockStore, _ model: Model, expected: [Expected], since before: Int, context: String) throws {
        let now = store.nowMilliseconds
        let states = try store.subscriptions.testSubscriptions().subscriptions
        let entitled = try store.subscriptions.currentEntitlements().signedTransactions.map(
            SubscriptionHistoryModelTests.payload)
        let shouldBeEntitled = model.status == .active && model.expires > now || model.status == .grace
        #expect(entitled.map(\.productId) == (shouldBeEntitled ? [Self.product] : []), "\(context): entitlement")
        if let state = states.first {
            #expect(state.status.rawValue == model.status.rawValue, "\(context): status")
            #expect(state.isEntitled == shouldBeEntitled, "\(context): isEntitled")
            if model.status != .expired {
                #expect(state.expiresDate == model.expires, "\(context): expires")
                #expect(state.autoRenewStatus == (model.autoRenew ? .on : .off), "\(context): auto-renew")
            }
            let renewal = try SubscriptionHistoryModelTests.decode(
                try #require(state.signedRenewalInfo), as: RenewalInfoPayload.self)
            #expect(
                (renewal.isInBillingRetryPeriod ?? false) == (model.status == .grace || model.status == .retry),
                "\(context): isInBillingRetryPeriod")
            if model.status == .grace { #expect(renewal.gracePeriodExpiresDate == model.graceEnd, "\(context)") }
            if model.status != .expired {
                #expect(
                    (renewal.priceIncreaseStatus == .customerHasNotResponded) == model.pricePending,
                    "\(context): priceIncreaseStatus")
            }
            let page = try store.serverAPI.history(.init(transactionId: state.latestTransactionId, sort: .descending))
            let latest = try page.signedTransactions.first.map(SubscriptionHistoryModelTests.payload)
            #expect(latest?.transactionId == state.latestTransactionId, "\(context): history's latest")
        } else {
            #expect(!model.bought, "\(context): a subscription bought is listed")
        }
        let made = Array(try store.notifications.notificationRecords().notifications.dropFirst(before))
        let seen = try made.map { record in
            let payload = try SubscriptionHistoryModelTests.decode(record.signedPayload, as: NotificationPayload.self)
            return Expected(type: payload.notificationType, subtype: payload.subtype)
        }
        #expect(seen == expected, "\(context): notifications")
        if let last = made.last, let state = states.first {
            let payload = try SubscriptionHistoryModelTests.decode(last.signedPayload, as: NotificationPayload.self)
            #expect(payload.data?.status == state.status, "\(context): the last notification's status")
        }
    }
}
