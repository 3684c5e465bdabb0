import Foundation
import StoreTestControls
import StoreWire

/// Server Notifications V2 as the store recorded them: a test waits for what it needs, then checks.
extension TestStore {
    /// Every notification the store has made, oldest first, with each try to send it: every page of
    /// `GET /test/v1/notifications`, joined.
    public func notifications() async throws -> [TestNotificationRecord] {
        var records: [TestNotificationRecord] = []
        var revision: String?
        while true {
            let page = try await notificationsPage(revision: revision, limit: 1_000)
            records += page.notifications
            guard page.hasMore == true, let next = page.revision else { return records }
            revision = next
        }
    }

    /// One page of the notifications, oldest first: those after the page whose `revision` is given (from the first
    /// without one), at most `limit` (the store's default, 100, without one), with `hasMore` and the `revision` of
    /// the next page. The last page's `revision` asks later for only the notifications made since.
    public func notificationsPage(revision: String? = nil, limit: Int? = nil) async throws -> TestNotificationsBody {
        try await get(TestNotificationsBody.self, TestControls.notificationsPage(revision: revision, limit: limit))
    }

    /// Waits until the store has recorded `count` notifications of `type` (and `subtype`, when given), and gives
    /// the first `count` of them; throws ``TestStoreError/timedOut(waitingFor:arrived:)`` (saying what did arrive)
    /// when `within` passes first. A notification is recorded with the change that makes it, so this returns as
    /// soon as the change is made; whether it was delivered to a receiver is in each record's `status`.
    public func notifications(
        of type: NotificationType, subtype: NotificationSubtype? = nil, count: Int = 1, within: Duration
    ) async throws -> [TestNotificationRecord] {
        try await waitForRecords(within: within, waitingFor: Self.words(type, subtype, count)) { records in
            let matching = records.filter {
                $0.notificationType == type && (subtype == nil || $0.subtype == subtype)
            }
            return matching.count >= count ? Array(matching.prefix(count)) : nil
        }
    }

    /// Waits until no notification is waiting for a try (each is `delivered`, `failed` or `unsent`): then counts
    /// are final. Gives every record.
    @discardableResult
    public func notificationsSettled(within: Duration) async throws -> [TestNotificationRecord] {
        try await waitForRecords(within: within, waitingFor: "every notification's last try") { records in
            records.contains { $0.status == .pending } ? nil : records
        }
    }

    /// Asks the store every 20 ms until `ready` gives an answer, or `within` passes.
    private func waitForRecords(
        within: Duration, waitingFor: String, _ ready: ([TestNotificationRecord]) -> [TestNotificationRecord]?
    ) async throws -> [TestNotificationRecord] {
        let deadline = ContinuousClock.now + within
        while true {
            let records = try await notifications()
            if let found = ready(records) { return found }
            guard ContinuousClock.now < deadline else {
                var arrived: [String: Int] = [:]
                for record in records {
                    arrived[
                        record.notificationType.rawValue + (record.subtype.map { " " + $0.rawValue } ?? ""), default: 0] +=
                        1
                }
                throw TestStoreError.timedOut(waitingFor: waitingFor, arrived: arrived)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    private static func words(_ type: NotificationType, _ subtype: NotificationSubtype?, _ count: Int) -> String {
        "\(count) \(type.rawValue)\(subtype.map { " " + $0.rawValue } ?? "") notification\(count == 1 ? "" : "s")"
    }
}
