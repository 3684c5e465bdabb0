import Foundation
import MockStoreTesting
import StoreTestControls
import StoreWire
import TestSupport
import Testing

/// Issue 27: `mockstore control wait-notification` for a test in any language: it prints the notifications once
/// they are recorded, and at its timeout says what did arrive.
@Suite struct WaitNotificationBinaryTests {
    /// `mockstore control --url URL ARGUMENTS`, run in this process (the binary's own command line is
    /// ControlCommandLineBinaryTests').
    private static func control(_ url: String, _ arguments: String...) async throws -> ProcessResult {
        try await MockStoreHarness.controlInProcess(["control", "--url", url] + arguments)
    }

    @Test func itWaitsForTheNotificationsAndPrintsThemAndSaysWhatCameAtItsTimeout() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LaunchedMockStore.start(dataDirectory: directory.file("store"))
        // Started before the purchase that makes the notification: it waits for it.
        let url = store.url
        let waiting = Task {
            try await Self.control(url, "wait-notification", "--type", "ONE_TIME_CHARGE", "--timeout", "120")
        }
        try await store.store.buy("ai.voicedebrief.app.credit.500")
        let waited = try await waiting.value
        #expect(waited.status == 0, "\(waited)")
        let body = try JSONDecoder().decode(TestNotificationsBody.self, from: Data(waited.stdout.utf8))
        #expect(body.notifications.map(\.notificationType) == [.oneTimeCharge])

        let none = try await Self.control(
            store.url, "wait-notification", "--type", "REFUND", "--count", "2", "--timeout", "1")
        #expect(none.status == 1, "\(none)")
        #expect(none.stderr.contains("for 2 REFUND notifications, and 0 came"), "\(none)")
        #expect(none.stderr.contains("the store recorded 1 ONE_TIME_CHARGE"), "\(none)")

        let wrong = try await Self.control(store.url, "wait-notification", "--type", "REFUNDED")
        #expect(wrong.status == 64, "\(wrong)")
        #expect(wrong.stderr.contains("\"REFUNDED\" is not a notification type"), "\(wrong)")
    }
}
