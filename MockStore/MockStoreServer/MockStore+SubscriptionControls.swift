import Foundation
import StoreWire

/// The subscription test controls: the virtual clock, and what `SKTestSession` does to a subscription.
extension MockStore {
    // MARK: Clock

    /// The clock now (`control clock`).
    public func clock(events: [TestSubscriptionEventRecord]? = nil) -> TestClockBody {
        let now = nowMilliseconds
        let rate = virtualClock.rate
        return TestClockBody(
            now: now, nowISO8601: Self.iso8601(now), rate: rate.name, timeRate: rate.rawValue,
            factor: rate.factor(shortestPeriodDays: virtualClock.shortestPeriodDays), events: events)
    }

    /// Moves the clock on by an ISO 8601 duration and runs every renewal and expiry that falls due on the way,
    /// in order, each at its own date.
    ///
    /// - Throws: ``MockStoreError`` 4000000 for a duration that is not a positive ISO 8601 one.
    public func advanceClock(by text: String) throws(MockStoreError) -> TestClockBody {
        guard let duration = ClockDuration(iso8601: text) else {
            throw .badRequest(
                "\"\(text)\" is not a duration the clock can move by: give a positive ISO 8601 duration such as "
                    + "P1M, P400D, PT90M or P1Y2M3DT4H5M6S (the clock never goes back).")
        }
        guard let target = duration.added(to: nowMilliseconds) else {
            throw .badRequest("\"\(text)\" moves the clock beyond the year 9999.")
        }
        let records = try withDatabase { database in
            let state = virtualClock.move(to: target)
            try database.saveClockState(state)
            let records = try runDueEvents(until: target, database)
            try completeDueMassExtensions(database)
            subscriptionRuntime.noteNextEvent(try database.nextSubscriptionEventDate())
            return records
        }
        notificationsDue.signal()
        return clock(events: records)
    }

    /// Sets the clock's rate (a `SKTestSession.TimeRate` name or its `_timeRate` number).
    public func setClockRate(_ text: String) throws(MockStoreError) -> TestClockBody {
        guard let rate = TimeRate(text: text) else {
            throw .badRequest(
                "\"\(text)\" is not a time rate: one of " + TimeRate.allCases.map(\.name).joined(separator: ", ")
                    + " (or its _timeRate number).")
        }
        try withDatabase { database in
            try database.saveClockState(virtualClock.setRate(rate))
            // Billing retry lasts differently at the new rate: when each subscription next changes, again.
            try rescheduleEverySubscription(database)
        }
        subscriptionRuntime.invalidate()
        return clock()
    }

    // MARK: Subscriptions

    /// Every subscription the store holds (`control subscriptions`).
    public func testSubscriptions() throws(MockStoreError) -> TestSubscriptionsBody {
        let now = nowMilliseconds
        return try withDatabase { database in
            _ = try runDueEvents(until: now, database)
            return TestSubscriptionsBody(
                subscriptions: try database.subscriptionStates().map { state in
                    TestSubscription(
                        originalTransactionId: state.originalTransactionId, subscriptionGroupIdentifier: state.groupId,
                        productId: state.productId, autoRenewProductId: state.autoRenewProductId,
                        autoRenewStatus: state.autoRenewEnabled ? .on : .off, status: state.status,
                        state: state.status.storeKitState, latestTransactionId: state.latestTransactionId,
                        expiresDate: state.expiresDate, expirationIntent: state.expirationIntent,
                        isEntitled: state.isEntitled(at: now), signedRenewalInfo: try signRenewalInfo(state))
                })
        }
    }

    /// `forceRenewalOfSubscription(productIdentifier:)`: a new period starts now (DID_RENEW).
    public func forceRenewal(_ reference: String) throws(MockStoreError) -> TestSubscriptionEventRecord {
        try subscriptionControl(reference) { .renew(at: $0) }
    }

    /// `expireSubscription(productIdentifier:)`: the period in force ends now (EXPIRED VOLUNTARY).
    public func expireSubscription(_ reference: String) throws(MockStoreError) -> TestSubscriptionEventRecord {
        try subscriptionControl(reference) { .expire(at: $0, intent: .customerCancelled) }
    }

    /// `enableAutoRenewForTransaction` / `disableAutoRenewForTransaction`: DID_CHANGE_RENEWAL_STATUS.
    public func setAutoRenew(_ reference: String, enabled: Bool) throws(MockStoreError)
        -> TestSubscriptionEventRecord
    {
        try subscriptionControl(reference) { .setAutoRenew(enabled, at: $0) }
    }

    /// The customer changes plan to `productId` (an upgrade, downgrade or crossgrade, or cancelling a downgrade).
    public func changeSubscription(_ reference: String, to productId: String) throws(MockStoreError)
        -> TestSubscriptionEventRecord
    {
        try subscriptionControl(reference) { .changeProduct(to: productId, at: $0) }
    }

    /// Runs the control's event on the subscription `reference` names (for any control, billing ones too): a
    /// transaction id of it, or a product id of its group.
    func subscriptionControl(_ reference: String, _ event: (Int64) -> SubscriptionEvent)
        throws(MockStoreError) -> TestSubscriptionEventRecord
    {
        let now = nowMilliseconds
        let record = try withDatabase { database in
            _ = try runDueEvents(until: now, database)
            let state = try subscription(reference, database)
            return try run(event(now), on: state, origin: .outside, database)
        }
        notificationsDue.signal()
        return record
    }

    /// The subscription a transaction id or product id names.
    func subscription(_ reference: String, _ database: TransactionStore) throws -> SubscriptionState {
        let group: String?
        if Self.isTransactionId(reference) {
            let transaction = try database.transaction(id: reference)
            try transaction.map(database.adopt)
            group = transaction?.subscription?.subscriptionGroupIdentifier
        } else {
            group = subscriptionLifecycle.products[reference]?.groupId
        }
        guard let group, let state = try database.subscriptionState(groupId: group) else {
            throw MockStoreError.conflict(
                "No subscription for \(reference): give a subscription's transaction id or a product id of its group"
                    + " that the customer subscribed to.")
        }
        return state
    }

    static func iso8601(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
