import Foundation
import StoreTestControls

/// Every notification the store made, read page by page from `GET /test/v1/notifications` (the store keeps only a
/// page in memory per answer): what `control notifications` prints, joined into one list as before pagination,
/// and what `control wait-notification` looks through.
enum NotificationList {
    /// Notifications asked for a page: the store's largest page.
    static let pageLimit = 1_000

    /// The request of the page after the one whose answer gave `revision` (the first page without one).
    static func pageRequest(after revision: String?) -> ControlRequest {
        ControlRequest(
            TestControls.notifications, NotificationPageParameters(revision: revision, limit: String(pageLimit)))
    }

    /// The request of the first page.
    static var firstPage: ControlRequest { pageRequest(after: nil) }

    /// Every notification at `base`, from the first page on.
    static func fetch(base: String, customer: String? = nil) -> Result<[TestNotificationRecord], FailedControl> {
        walk(from: nil, base: base, customer: customer)
    }

    /// Every notification, given the first page's answer `first`: it and the pages after it.
    static func fetch(after first: [UInt8], base: String, customer: String?)
        -> Result<[TestNotificationRecord], FailedControl>
    {
        walk(from: first, base: base, customer: customer)
    }

    private static func walk(from first: [UInt8]?, base: String, customer: String?)
        -> Result<[TestNotificationRecord], FailedControl>
    {
        var records: [TestNotificationRecord] = []
        var answer = first
        var request = firstPage
        while true {
            if answer == nil {
                let outcome = ControlInvocation(url: base, request: request, customer: customer).run()
                guard outcome.status == 0 else { return .failure(FailedControl(outcome: outcome)) }
                answer = Array(outcome.stdout.utf8)
            }
            guard let page = try? JSONDecoder().decode(TestNotificationsBody.self, from: Data(answer ?? [])) else {
                return .failure(unreadable)
            }
            records += page.notifications
            guard page.hasMore == true, let revision = page.revision else { return .success(records) }
            request = pageRequest(after: revision)
            answer = nil
        }
    }

    private static let unreadable = FailedControl(
        outcome: ControlInvocation.Outcome(
            status: 1, stdout: "", stderr: "mockstore: error: the store's notification list cannot be read\n"))
}
