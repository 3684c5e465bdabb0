import Foundation
import Testing

@testable import MockStoreSQLite
@testable import MockStoreServer
@testable import StoreKitCatalogue

/// The lifecycle model as a pure function, the clock's durations and rates.
@Suite struct SubscriptionLifecycleTests {
    static let group = "G1"
    static let monthly = SubscriptionProduct(
        id: "monthly", groupId: group, level: 2, period: SubscriptionPeriod(value: 1, unit: .month), price: 9_990)
    static let yearly = SubscriptionProduct(
        id: "yearly", groupId: group, level: 1, period: SubscriptionPeriod(value: 1, unit: .year), price: 99_990)
    static let basic = SubscriptionProduct(
        id: "basic", groupId: group, level: 3, period: SubscriptionPeriod(value: 1, unit: .month), price: 4_990)
    static let sideways = SubscriptionProduct(
        id: "sideways", groupId: group, level: 2, period: SubscriptionPeriod(value: 1, unit: .month), price: 8_990)
    static let trial = SubscriptionProduct(
        id: "trial", groupId: "G2", level: 1, period: SubscriptionPeriod(value: 1, unit: .month), price: 5_000,
        introductoryOffer: SubscriptionOffer(
            kind: .introductory, paymentMode: .freeTrial, period: SubscriptionPeriod(value: 1, unit: .week),
            periodCount: 1, displayPrice: "0", priceMilliunits: 0))

    let lifecycle = SubscriptionLifecycle(products: [monthly, yearly, basic, sideways, trial])
    let context = SubscriptionPurchaseContext(currency: "USD", storefront: "USA", storefrontId: "143441")
    /// 2025-01-31T00:00:00Z.
    let start: Int64 = 1_738_281_600_000

    func subscribed(_ product: String = "monthly") throws -> SubscriptionState {
        var state = try lifecycle.subscribe(product, previous: nil, at: start, context: context).state
        state.originalTransactionId = "1"
        state.latestTransactionId = "1"
        return state
    }

    @Test func aFirstPurchaseIsAnInitialBuyForOneCalendarPeriod() throws {
        let step = try lifecycle.subscribe("monthly", previous: nil, at: start, context: context)
        #expect(step.notice == SubscriptionNotice(.subscribed, .initialBuy))
        #expect(step.newTransaction?.transactionReason == .purchase)
        // 31 January plus one calendar month is 28 February.
        #expect(step.newTransaction?.expiresDate == 1_740_700_800_000)
        #expect(step.state.status == .active && step.state.autoRenewEnabled)
        #expect(step.state.renewalPrice == 9_990)
    }

    @Test func theClockRenewsAtTheEndOfEachPeriodAndExpiresOnceAutoRenewIsOff() throws {
        let state = try subscribed()
        #expect(lifecycle.dueEvent(state, now: state.expiresDate - 1) == nil)
        let due = try #require(lifecycle.dueEvent(state, now: state.expiresDate))
        #expect(due == .renew(at: state.expiresDate))
        let renewed = try lifecycle.apply(due, to: state)
        #expect(renewed.notice == SubscriptionNotice(.didRenew))
        #expect(renewed.newTransaction?.transactionReason == .renewal)
        #expect(renewed.newTransaction?.purchaseDate == state.expiresDate)
        #expect(renewed.state.recentSubscriptionStartDate == start)
        let off = try lifecycle.apply(.setAutoRenew(false, at: start), to: renewed.state)
        #expect(off.notice == SubscriptionNotice(.didChangeRenewalStatus, .autoRenewDisabled))
        #expect(try lifecycle.apply(.setAutoRenew(false, at: start), to: off.state).notice == nil)
        let end = try #require(lifecycle.dueEvent(off.state, now: .max))
        let expired = try lifecycle.apply(end, to: off.state)
        #expect(expired.notice == SubscriptionNotice(.expired, .voluntary))
        #expect(expired.state.status == .expired && expired.state.expirationIntent == .customerCancelled)
        #expect(!expired.state.isEntitled(at: expired.state.expiresDate - 1))
        let again = try lifecycle.subscribe("basic", previous: expired.state, at: .max / 2, context: context)
        #expect(again.notice == SubscriptionNotice(.subscribed, .resubscribe))
        #expect(again.state.originalTransactionId == "1")
    }

    @Test func aProductNoLongerSoldExpiresAtTheEndOfItsPeriod() throws {
        let state = try subscribed()
        var smaller = lifecycle
        smaller.products["monthly"] = nil
        let due = try #require(smaller.dueEvent(state, now: state.expiresDate))
        #expect(due == .expire(at: state.expiresDate, intent: .productNotAvailable))
        #expect(try smaller.apply(due, to: state).notice == SubscriptionNotice(.expired, .productNotForSale))
    }

    @Test func anUpgradeIsImmediateAndRefundsThePeriodLeft() throws {
        let state = try subscribed()
        let half = state.currentPeriodStart + (state.expiresDate - state.currentPeriodStart) / 2
        let step = try lifecycle.apply(.changeProduct(to: "yearly", at: half), to: state)
        #expect(step.notice == SubscriptionNotice(.didChangeRenewalPref, .upgrade))
        #expect(step.newTransaction?.purchaseDate == half && step.newTransaction?.productId == "yearly")
        let amendment = try #require(step.amendments.first)
        #expect(amendment.isUpgraded && amendment.revocationDate == half)
        #expect(amendment.revocationPercentage == 50_000)
        #expect(step.state.productId == "yearly" && step.state.autoRenewProductId == "yearly")
    }

    @Test func aDowngradeWaitsForTheRenewalAndCanBeCancelled() throws {
        let state = try subscribed()
        let step = try lifecycle.apply(.changeProduct(to: "basic", at: start + 1), to: state)
        #expect(step.notice == SubscriptionNotice(.didChangeRenewalPref, .downgrade))
        #expect(step.newTransaction == nil && step.state.productId == "monthly")
        #expect(step.state.autoRenewProductId == "basic" && step.state.renewalPrice == 4_990)
        let cancelled = try lifecycle.apply(.changeProduct(to: "monthly", at: start + 2), to: step.state)
        #expect(cancelled.notice == SubscriptionNotice(.didChangeRenewalPref, nil))
        #expect(cancelled.state.autoRenewProductId == "monthly")
        let renewed = try lifecycle.apply(.renew(at: step.state.expiresDate), to: step.state)
        #expect(renewed.newTransaction?.productId == "basic" && renewed.state.productId == "basic")
    }

    @Test func aCrossgradeOfTheSamePeriodIsImmediate() throws {
        let step = try lifecycle.apply(.changeProduct(to: "sideways", at: start + 1), to: try subscribed())
        #expect(step.notice == SubscriptionNotice(.didChangeRenewalPref, .upgrade))
        #expect(step.newTransaction?.productId == "sideways")
    }

    @Test func refundingThePeriodInForceRevokesTheSubscription() throws {
        let state = try subscribed()
        let older = try lifecycle.apply(.refund(transactionId: "0", at: start), to: state)
        #expect(older.state.status == .active && older.notice == SubscriptionNotice(.refund))
        let step = try lifecycle.apply(.refund(transactionId: "1", at: start), to: state)
        #expect(step.state.status == .revoked && !step.state.isEntitled(at: start))
        #expect(throws: SubscriptionLifecycleError.notActive) {
            try lifecycle.apply(.renew(at: start), to: step.state)
        }
    }

    @Test func theIntroductoryOfferIsForTheFirstSubscriptionOfTheGroupOnly() throws {
        let first = try lifecycle.subscribe("trial", previous: nil, at: start, context: context)
        #expect(first.newTransaction?.price == 0)
        #expect(first.newTransaction?.offer?.offerType == .introductoryOffer)
        #expect(first.newTransaction?.offer?.offerDiscountType == .freeTrial)
        #expect(first.newTransaction?.offer?.offerPeriod == "P1W")
        #expect(first.newTransaction?.expiresDate == start + 7 * 86_400_000)
        #expect(first.state.renewalPrice == 5_000 && first.state.usedIntroductoryOffer)
        var expired = try lifecycle.apply(.expire(at: start + 1, intent: .customerCancelled), to: first.state).state
        expired.originalTransactionId = "9"
        let again = try lifecycle.subscribe("trial", previous: expired, at: start + 2, context: context)
        #expect(again.newTransaction?.price == 5_000 && again.newTransaction?.offer == nil)
    }

    @Test func durationsAreReadAsISO8601AndAddedOnTheCalendar() throws {
        let day: Int64 = 86_400_000
        #expect(ClockDuration(iso8601: "P400D")?.added(to: start) == start + 400 * day)
        #expect(ClockDuration(iso8601: "PT90M")?.added(to: start) == start + 90 * 60_000)
        #expect(ClockDuration(iso8601: "P2W")?.added(to: start) == start + 14 * day)
        #expect(ClockDuration(iso8601: "P1M")?.added(to: start) == 1_740_700_800_000, "31 Jan + 1 month: 28 Feb")
        #expect(ClockDuration(iso8601: "PT1.5S")?.added(to: start) == start + 1_500)
        let full = try #require(ClockDuration(iso8601: "P1Y2M3DT4H5M6S"))
        let parts: [Int] = [full.years, full.months, full.days, full.hours, full.minutes]
        #expect(parts == [1, 2, 3, 4, 5])
        #expect(full.milliseconds == 6_000)
        for bad in ["", "P", "PT", "-P1M", "P-1M", "1M", "P1", "PM", "P1M1Y", "P1H", "PT1D", "P0D", "P1.5M", "garbage"]
        {
            #expect(ClockDuration(iso8601: bad) == nil, "\(bad)")
        }
    }

    @Test func timeRatesHaveXcodesNumbersAndSpeeds() throws {
        #expect(TimeRate(text: "monthlyRenewalEveryHour") == .monthlyRenewalEveryHour)
        #expect(TimeRate(text: "15") == .monthlyRenewalEveryThirtySeconds)
        #expect(TimeRate(text: "1005") == .oneRenewalEveryTwoSeconds)
        #expect(TimeRate(text: "14") == nil && TimeRate(text: "fast") == nil)
        #expect(TimeRate.realTime.factor() == 1)
        #expect(TimeRate.monthlyRenewalEveryHour.factor() == 720, "30 days in one hour")
        #expect(TimeRate.oneRenewalEveryTenSeconds.factor(shortestPeriodDays: 7) == 7 * 86_400_000 / 10_000)
    }

    @Test func theVirtualClockNeverGoesBackAndKeepsItsRate() {
        let base = ManualClock(fixedDate)
        let clock = VirtualClock(base: base)
        #expect(clock.currentMilliseconds() == fixedDate.millisecondsSince1970)
        clock.move(to: fixedDate.millisecondsSince1970 + 1_000)
        clock.move(to: 0)
        #expect(clock.currentMilliseconds() == fixedDate.millisecondsSince1970 + 1_000)
        clock.setRate(.monthlyRenewalEveryHour)
        base.advance(by: 5)
        #expect(clock.currentMilliseconds() == fixedDate.millisecondsSince1970 + 1_000 + 5_000 * 720)
        let restored = VirtualClock(base: base)
        restored.restore(clock.current)
        #expect(
            restored.currentMilliseconds() == clock.currentMilliseconds() && restored.rate == .monthlyRenewalEveryHour)
    }
}

/// Schema version 3: a version 2 database is migrated in place.
@Suite struct SubscriptionSchemaTests {
    @Test func aVersion2DatabaseIsMigratedToTheCurrentVersion() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("v2.sqlite")
        do {
            let database = try SQLiteDatabase(path: path)
            try database.execute(TransactionStore.schemaSQL)
            try database.execute(TransactionStore.version2SQL)
            try database.execute(
                """
                INSERT INTO transactions (id, serial, original_id, product_id, product_type, quantity, price, currency,
                    storefront, storefront_id, purchase_date, original_purchase_date, transaction_reason, ownership_type,
                    origin, status, version, change_sequence, order_id)
                VALUES ('2000000000000003', 3, '2000000000000003', 'p', 'Consumable', 1, 5000, 'GBP', 'GBR', '143444',
                    1, 1, 'PURCHASE', 'PURCHASED', 'app', 'purchased', 1, 1, 'MOCK00000003');
                """)
            #expect(try database.userVersion == 2)
            try database.close()
        }
        let store = try TransactionStore(path: path)
        defer { try? store.close() }
        #expect(try store.database.userVersion == TransactionStore.schemaVersion)
        let migrated = try #require(try store.transaction(id: "2000000000000003"))
        #expect(migrated.orderId == "MOCK00000003" && migrated.subscription == nil)
        #expect(try store.subscriptionStates().isEmpty && store.clockState() == nil)
        var new = NewTransaction(
            productId: "s", productType: .autoRenewableSubscription, quantity: 1, price: 1, currency: "GBP",
            storefront: "GBR", storefrontId: "143444", purchaseDate: 2)
        new.subscription = NewSubscriptionTransaction(
            fields: TransactionSubscriptionFields(expiresDate: 9, subscriptionGroupIdentifier: "G"),
            originalTransactionId: nil, originalPurchaseDate: nil, transactionReason: .purchase)
        let stored = try store.insert(new, ids: SandboxTransactionIDs())
        #expect(stored.subscription?.expiresDate == 9 && stored.subscription?.webOrderLineItemId.isEmpty == false)
        #expect(try store.transaction(id: stored.id) == stored)
    }
}

extension SubscriptionLifecycleTests {
    @Test(arguments: [SubscriptionLifecycle.sandboxLapseLimit, SubscriptionLifecycle.productionLapseLimit])
    func aResubscribeKeepsTheRunsStartThroughALapseJustShorterThanTheLimitOnly(limit: Int64) throws {
        var lifecycle = self.lifecycle
        lifecycle.recentStartLapseLimit = limit
        let off = try lifecycle.apply(.setAutoRenew(false, at: start), to: try subscribed())
        let expired = try lifecycle.apply(.expire(at: off.state.expiresDate, intent: .customerCancelled), to: off.state)
            .state
        let ended = expired.expiresDate
        let kept = try lifecycle.subscribe("monthly", previous: expired, at: ended + limit - 1, context: context)
        #expect(kept.state.recentSubscriptionStartDate == start, "a lapse 1 ms shorter than the limit is ignored")
        let anew = try lifecycle.subscribe("monthly", previous: expired, at: ended + limit, context: context)
        #expect(anew.state.recentSubscriptionStartDate == ended + limit, "a lapse as long as the limit is a new run")
        // A revocation's lapse counts from its date, not from the end of the period it cut short.
        let revoked = try lifecycle.apply(.refund(transactionId: "1", at: start + 1), to: try subscribed()).state
        #expect(revoked.status == .revoked && revoked.lapseStart == start + 1)
        let back = try lifecycle.subscribe("monthly", previous: revoked, at: start + 1 + limit, context: context)
        #expect(back.state.recentSubscriptionStartDate == start + 1 + limit)
    }

    @Test func theAppStoreTurnsAutoRenewOffOnlyWhenItIsOnAndTheSubscriptionInForce() throws {
        let state = try subscribed()
        let step = try #require(lifecycle.autoRenewDisabledByTheStore(before: state, after: state))
        #expect(step.notice == SubscriptionNotice(.didChangeRenewalStatus, .autoRenewDisabled))
        #expect(!step.state.autoRenewEnabled && step.state.status == .active)
        #expect(lifecycle.autoRenewDisabledByTheStore(before: step.state, after: step.state) == nil, "off already")
        let revoked = try lifecycle.apply(.refund(transactionId: "1", at: start), to: state).state
        #expect(lifecycle.autoRenewDisabledByTheStore(before: state, after: revoked)?.state.status == .revoked)
        #expect(lifecycle.autoRenewDisabledByTheStore(before: revoked, after: revoked) == nil, "lapsed")
    }
}
