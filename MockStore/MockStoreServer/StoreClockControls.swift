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
            let records = try subscriptions.runDueEvents(until: target, database)
            try extensions.completeDueMassExtensions(database)
            runtime.noteNextEvent(try database.nextSubscriptionEventDate())
            return records
        }
        notifications.due.ring()
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
