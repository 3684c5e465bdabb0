import Foundation
import Testing

@testable import MockStoreServer
@testable import StoreKitCatalogue

/// Random histories of one subscription through the pure lifecycle with the billing events (failed renewals with
/// and without a grace period, grace expiry, recovery, the end of billing retry, price increases, extensions,
/// refunds and their reversal), seeded and deterministic: after every step the state keeps Apple's rules.
@Suite struct BillingLifecycleModelTests {
    static let day: Int64 = 86_400_000
    static let notices: Set<String> = [
        "SUBSCRIBED", "DID_RENEW", "DID_RENEW/BILLING_RECOVERY", "EXPIRED/VOLUNTARY", "EXPIRED/BILLING_RETRY",
        "EXPIRED/PRICE_INCREASE", "EXPIRED/PRODUCT_NOT_FOR_SALE", "DID_FAIL_TO_RENEW", "DID_FAIL_TO_RENEW/GRACE_PERIOD",
        "GRACE_PERIOD_EXPIRED", "PRICE_INCREASE/PENDING", "PRICE_INCREASE/ACCEPTED", "RENEWAL_EXTENDED", "REFUND",
        "REFUND_REVERSED", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED",
        "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED",
    ]

    /// A small deterministic generator (SplitMix64).
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func billingHistoriesKeepApplesRules(seed: UInt64) throws {
        let catalogue = try StoreKitConfiguration.load(
            contentsOf: Repository.root + "/Tests/Fixtures/Subscriptions.storekit")
        let lifecycle = SubscriptionLifecycle(catalogue: catalogue)
        let context = SubscriptionPurchaseContext(currency: "USD", storefront: "USA", storefrontId: "143441")
        var random = Random(state: seed)
        var now: Int64 = 1_760_000_000_000
        var serial = 0
        var billing = BillingSettings()
        var refunded: String?

        func record(_ step: SubscriptionStep) -> SubscriptionState {
            var state = step.state
            if step.newTransaction != nil {
                serial += 1
                if state.originalTransactionId.isEmpty { state.originalTransactionId = "t\(serial)" }
                state.latestTransactionId = "t\(serial)"
            }
            if let notice = step.notice {
                let name = notice.type.rawValue + (notice.subtype.map { "/" + $0.rawValue } ?? "")
                #expect(Self.notices.contains(name) || name.hasPrefix("SUBSCRIBED"), "\(name)")
            }
            return state
        }

        var state = record(
            try lifecycle.subscribe("com.example.news.weekly", previous: nil, at: now, context: context))
        for _ in 0..<80 {
            switch random.next(9) {
            case 0: billing.billingRetryOnRenewal.toggle()
            case 1: billing.gracePeriodEnabled.toggle()
            case 2: if let step = try? lifecycle.applyBilling(.recover(at: now), to: state) { state = record(step) }
            case 3:
                let days = 1 + random.next(40)
                let before = state
                if let step = try? lifecycle.applyBilling(
                    .extend(days: days, requestIdentifier: nil, at: now), to: state)
                {
                    state = record(step)
                    #expect(state.expiresDate == before.expiresDate + Int64(days) * Self.day)
                    #expect(before.status == .active && before.currentOffer?.offerDiscountType != .freeTrial)
                }
            case 4:
                let event = BillingEvent.requestPriceIncrease(price: 2_490, needsConsent: random.next(2) == 0, at: now)
                if let step = try? lifecycle.applyBilling(event, to: state) { state = record(step) }
            case 5:
                if let step = try? lifecycle.applyBilling(.consentToPriceIncrease(at: now), to: state) {
                    state = record(step)
                }
            case 6:
                if let refunded {
                    state = record(
                        try lifecycle.applyBilling(.reverseRefund(transactionId: refunded, at: now), to: state))
                } else if state.status == .active {
                    refunded = state.latestTransactionId
                    state = record(
                        try lifecycle.apply(.refund(transactionId: state.latestTransactionId, at: now), to: state))
                }
                if state.status != .revoked { refunded = nil }
            default:
                now += Int64(1 + random.next(20)) * Self.day
                var guardCount = 0
                while let event = lifecycle.dueEvent(state, now: now, billing: billing), guardCount < 100 {
                    state = record(try lifecycle.apply(event, to: state))
                    guardCount += 1
                }
                if state.status == .expired {
                    state = record(
                        try lifecycle.subscribe("com.example.news.weekly", previous: state, at: now, context: context))
                    refunded = nil
                }
            }
            // Apple's rules, whatever happened.
            #expect(
                (state.isInBillingRetryPeriod ?? false) == [.billingRetry, .billingGracePeriod].contains(state.status))
            #expect(
                (state.status == .billingGracePeriod)
                    == (state.gracePeriodExpiresDate.map { _ in state.status == .billingGracePeriod } ?? false))
            #expect(
                state.isEntitled(at: now)
                    == (state.status == .active && state.expiresDate > now
                        || state.status == .billingGracePeriod && (state.gracePeriodExpiresDate ?? 0) > now))
            let extensions = state.renewalExtensions ?? []
            #expect(extensions.reduce(0) { $0 + $1.days } <= 250)
            for record in extensions {
                #expect(extensions.filter { abs($0.date - record.date) < 365 * Self.day }.count <= 2)
            }
            if state.status == .billingRetry { #expect(now < state.expiresDate + 60 * Self.day + 1) }
        }
    }
}
