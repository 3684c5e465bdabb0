import Foundation
import MockStoreSQLite
import StoreTestControls
import StoreWire

/// The clock part: the virtual clock's test controls (`control clock`), moving it on and setting its rate, and what
/// falls due on the way.
public struct StoreClockControls: SubscriptionStorePart {
    let configuration: MockStore.Configuration
    let database: GroupCommit<TransactionStore>
    let runtime: SubscriptionRuntime
    let subscriptions: StoreSubscriptions
    let billingSettings: StoreBillingSettings
    let extensions: StoreExtensions
    let notifications: StoreNotifications

    /// The clock now (`control clock`): under the sandbox clock, the wall clock at factor 1 and the sandbox's rate.
    public func clock(events: [TestSubscriptionEventRecord]? = nil) -> TestClockBody {
        let now = nowMilliseconds
        if let sandboxRate = runtime.sandboxRate {
            return TestClockBody(
                kind: .sandbox, now: now, nowISO8601: Self.iso8601(now),
                rate: StoreTimeRate(rawValue: sandboxRate.name),
                timeRate: sandboxRate.timeRate.rawValue, factor: 1, events: events)
        }
        let rate = virtualClock.rate
        return TestClockBody(
            kind: .virtual, now: now, nowISO8601: Self.iso8601(now), rate: StoreTimeRate(rawValue: rate.name),
            timeRate: rate.rawValue,
            factor: rate.factor(shortestPeriodDays: virtualClock.shortestPeriodDays), events: events)
    }

    /// Refuses to move the sandbox clock: it is the wall clock, and real time cannot be moved or sped up (Apple's
    /// sandbox has no such control either: a tester picks the renewal rate in App Store Connect).
    private func refuseUnderSandboxClock(_ change: MockStoreError.Conflict.ClockChange) throws(MockStoreError) {
        guard let sandboxRate = runtime.sandboxRate else { return }
        throw .conflict(.sandboxClock(sandboxRate, change))
    }

    /// Moves the clock on by an ISO 8601 duration and runs every renewal and expiry that falls due on the way,
    /// in order, each at its own date.
    ///
    /// - Throws: ``MockStoreError`` 4000000 for a duration that is not a positive ISO 8601 one; 409 under the
    ///   sandbox clock.
    public func advanceClock(by text: String) throws(MockStoreError) -> TestClockBody {
        try refuseUnderSandboxClock(.movedOn)
        guard let duration = ClockDuration(iso8601: text) else {
            throw .invalid(.invalidDuration(text))
        }
        guard let target = duration.added(to: nowMilliseconds) else {
            throw .invalid(.durationBeyondYear9999(text))
        }
        let records = try withDatabase { database in
            let state = virtualClock.move(to: target)
            try database.saveClockState(state)
            let records = try subscriptions.runDueEvents(until: target, database)
            try extensions.completeDueMassExtensions(database)
            runtime.noteNextEvent(try database.nextSubscriptionEventDate())
            return records
        }
        notifications.due.ring()
        return clock(events: records)
    }

    /// Sets the clock's rate (a `SKTestSession.TimeRate` name or its `_timeRate` number); 409 under the sandbox
    /// clock.
    public func setClockRate(_ text: String) throws(MockStoreError) -> TestClockBody {
        try refuseUnderSandboxClock(.spedUp)
        guard let rate = TimeRate(text: text) else {
            throw .invalid(.invalidTimeRate(text))
        }
        try withDatabase { database in
            try database.saveClockState(virtualClock.setRate(rate))
            // Billing retry lasts differently at the new rate: when each subscription next changes, again.
            try billingSettings.rescheduleEverySubscription(database)
        }
        runtime.invalidate()
        return clock()
    }

    static func iso8601(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
