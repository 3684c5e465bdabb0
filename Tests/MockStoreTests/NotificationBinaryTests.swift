import Foundation
import FoundationNetworking
import MockStoreTesting
import Signing
import StoreTestControls
import StoreWire
import Testing

@testable import MockStoreHTTP
@testable import MockStoreServer

/// Server Notifications V2 from the real binary to a receiver in the test (the store's own HTTP server class).
@Suite struct NotificationBinaryTests {
    let directory: TemporaryDirectory
    let token: ServerAPIToken
    var data: String { directory.file("data") }

    init() throws {
        directory = try TemporaryDirectory("mockstore-notify")
        token = try ServerAPIToken()
    }

    func start(_ receiver: NotificationReceiver, _ extra: [String] = [], retryBase: String = "20") async throws
        -> MockStoreHarness
    {
        try await MockStoreHarness.start(
            dataDirectory: data,
            extraArguments: ["--notify", receiver.url, "--notify-retry-base-ms", retryBase] + extra)
    }

    func root(_ store: MockStoreHarness) async throws -> Certificate {
        try Certificate(derRepresentation: try await store.get(SandboxAPI.rootCertificate.path()).body)
    }

    /// The store's notification records, over HTTP (polled: cheaper than running `mockstore control` each time;
    /// the control itself is tested in SandboxControlBinaryTests).
    func notifications(_ store: MockStoreHarness) async throws -> [TestNotificationRecord] {
        try await store.get(TestControls.notifications.path()).decoded(TestNotificationsBody.self).notifications
    }
}

extension NotificationBinaryTests {
    @Test func testNotificationIsSignedDeliveredAndItsStatusListsTheAttempt() async throws {
        let receiver = try NotificationReceiver()
        let store = try await start(receiver)
        let root = try await root(store)
        // Signed between the request and the reading of it: bounds from this test's own clock, not from a time it
        // hopes a loaded machine keeps to.
        let asked = Date().timeIntervalSince1970
        let requested = try await store.request(
            "POST", ServerAPI.requestTestNotification.path(), headers: try token.header())
        #expect(requested.status == 200)
        #expect(requested.contentType == "application/json")
        let testToken = try requested.decoded(SendTestNotificationResponseBody.self).testNotificationToken
        try await eventually("the receiver gets the TEST notification") { receiver.bodies.count == 1 }
        let signed = try JSONDecoder().decode(
            SignedNotificationBody.self, from: Data(try #require(receiver.bodies.first)))
        let payload = try verifiedES256Payload(signed.signedPayload, as: NotificationPayload.self, root: root)
        #expect(payload.notificationType == .test)
        #expect(payload.subtype == nil)
        #expect(payload.version == "2.0")
        #expect(UUID(uuidString: payload.notificationUUID) != nil)
        #expect(
            payload.data
                == NotificationData(environment: .sandbox, appAppleId: nil, bundleId: "ai.voicedebrief.app"),
            "Apple leaves appAppleId out in the sandbox (issue 15)")
        let signedAt = Double(payload.signedDate) / 1_000
        #expect(signedAt >= asked - 1 && signedAt <= Date().timeIntervalSince1970 + 1, "signed at \(signedAt)")

        try await eventually("the attempt is recorded") {
            try await notifications(store).first?.sendAttempts.count == 1
        }
        let status = try await store.request(
            "GET", ServerAPI.testNotificationStatus.path(.init(token: testToken)), headers: try token.header())
        #expect(status.status == 200)
        let body = try status.decoded(CheckTestNotificationResponseBody.self)
        #expect(body.signedPayload == signed.signedPayload)
        #expect(body.sendAttempts.map(\.sendAttemptResult) == [.success])
        #expect(try await notifications(store).first?.status == .delivered)
        #expect(try await store.stop() == 0)
    }

    @Test func refundLifecycleSendsEachNotificationWithTheTransaction() async throws {
        let receiver = try NotificationReceiver()
        let store = try await start(
            receiver, ["--bundle-version", "42", "--app-apple-id", "987654321", "--environment", "production"])
        let root = try await root(store)
        let shop = store.testStore
        let id = try await shop.buy("ai.voicedebrief.app.credit.500").transaction.transactionId
        try await shop.requestRefund(id, reason: .unsatisfiedWithPurchase)
        try await shop.declineRefund(id)
        try await shop.requestRefund(id)
        try await shop.refund(id, reason: .refundedDueToIssue)
        try await shop.reverseRefund(id)
        // What the store records, then every try settled: the receiver's count is final then.
        _ = try await shop.notifications(of: .refundReversed, within: .seconds(300))
        let records = try await shop.notificationsSettled(within: .seconds(300))
        #expect(records.count == 6)
        #expect(receiver.bodies.count == 6)
        let payloads = try receiver.bodies.map { body in
            let signed = try JSONDecoder().decode(SignedNotificationBody.self, from: Data(body)).signedPayload
            return try verifiedES256Payload(signed, as: NotificationPayload.self, root: root)
        }
        #expect(
            payloads.map(\.notificationType) == [
                .oneTimeCharge, .consumptionRequest, .refundDeclined, .consumptionRequest, .refund,
                .refundReversed,
            ])
        #expect(
            payloads.map { $0.data?.consumptionRequestReason } == [
                nil, .unsatisfiedWithPurchase, nil, .unintendedPurchase, nil, nil,
            ])
        #expect(Set(payloads.map(\.notificationUUID)).count == 6)
        for payload in payloads {
            let data = try #require(payload.data)
            #expect(data.environment == .production && data.bundleId == "ai.voicedebrief.app")
            #expect(data.appAppleId == 987_654_321 && data.bundleVersion == "42")
            #expect(payload.version == "2.0")
        }
        let infos = try payloads.map {
            try verifiedES256Payload(
                try #require($0.data?.signedTransactionInfo), as: SignedTransactionPayload.self, root: root)
        }
        #expect(infos.allSatisfy { $0.transactionId == id })
        #expect(infos[0].revocationDate == nil, "ONE_TIME_CHARGE carries the purchase")
        #expect(
            infos[4].revocationDate != nil && infos[4].revocationReason == .refundedDueToIssue,
            "REFUND carries the revocation")
        #expect(infos[5].revocationDate == nil, "REFUND_REVERSED carries the reinstated transaction")
        #expect(infos.allSatisfy { $0.environment == .production && $0.deviceVerification == nil })
        #expect(
            records.allSatisfy { $0.status == .delivered && $0.sendAttempts.map(\.sendAttemptResult) == [.success] })
        #expect(try await store.stop() == 0)
    }

    @Test func aFailingReceiverSeesRetriesOnTheScaledSchedule() async throws {
        let receiver = try NotificationReceiver(statuses: [500, 503])
        // Retries happen in production only (issue 15); the purchase's ONE_TIME_CHARGE is the notification.
        let store = try await start(receiver, ["--environment", "production"])
        _ = try await store.testStore.buy("ai.voicedebrief.app.credit.500")
        try await eventually("the third try succeeds") {
            try await notifications(store).first?.status == .delivered
        }
        let record = try #require(try await notifications(store).first)
        #expect(
            record.sendAttempts.map(\.sendAttemptResult) == [
                .unsuccessfulHttpResponseCode, .unsuccessfulHttpResponseCode, .success,
            ])
        #expect(record.sendAttempts.map(\.httpStatus) == [500, 503, 200])
        let dates = record.sendAttempts.map(\.attemptDate)
        #expect(dates[1] - dates[0] >= 20, "1 × base after the first failure")
        #expect(dates[2] - dates[1] >= 240, "12 × base after the second")
        let uuids = Set(try receiver.payloads().map(\.notificationUUID))
        #expect(receiver.bodies.count == 3)
        #expect(uuids.count == 1, "the same notification is sent again")
        #expect(try await store.stop() == 0)
    }

    @Test func triesRunOutAndAnUnreachableReceiverIsASocketIssue() async throws {
        let receiver = try NotificationReceiver(statuses: [500, 500, 500, 500])
        // Held bound and not listening: refused, and no other test's server can take the port meanwhile.
        let closed = try HeldPort()
        let closedURL = closed.url + "/gone"
        let store = try await start(receiver, ["--notify-max-attempts", "2", "--environment", "production"])
        _ = try await store.testStore.buy("ai.voicedebrief.app.credit.500")
        try await eventually("the tries run out") { try await notifications(store).first?.status == .failed }
        #expect(try await notifications(store).first?.sendAttempts.count == 2)
        #expect(receiver.bodies.count == 2)
        #expect(try await store.stop() == 0)

        let unreachable = try await MockStoreHarness.start(
            dataDirectory: data,
            extraArguments: [
                "--notify", closedURL, "--notify-retry-base-ms", "10", "--notify-max-attempts", "3", "--environment",
                "production",
            ])
        let requested = try await unreachable.request(
            "POST", ServerAPI.requestTestNotification.path(), headers: try token.header())
        let testToken = try requested.decoded(SendTestNotificationResponseBody.self).testNotificationToken
        try await eventually("three socket issues") {
            try await notifications(unreachable).last?.status == .failed
        }
        let status = try await unreachable.request(
            "GET", ServerAPI.testNotificationStatus.path(.init(token: testToken)), headers: try token.header())
        let results = try status.decoded(CheckTestNotificationResponseBody.self).sendAttempts.map(\.sendAttemptResult)
        #expect(results == [.socketIssue, .socketIssue, .socketIssue], "\(results)")
        #expect(try await unreachable.stop() == 0)
        withExtendedLifetime(closed) {}
    }

    @Test func pendingNotificationsAreSentAfterARestart() async throws {
        // Two receivers, so the delivery can only be the restarted store's, however late this test's polling runs
        // on a loaded machine.
        let failing = try NotificationReceiver(statuses: Array(repeating: 500, count: 50))
        let receiving = try NotificationReceiver()
        // An "hour" of an hour: the first store's next try is due an hour after its first, so it makes no other
        // however long this test is held, and only the restarted store's own schedule can send it within the test.
        var store = try await start(failing, ["--environment", "production"], retryBase: "3600000")
        _ = try await store.testStore.buy("ai.voicedebrief.app.credit.500")
        if try await !eventually("the first try fails", { failing.bodies.count >= 1 }) {
            // Say why: the store's records of the notification and what it printed.
            let records = try await store.get(TestControls.notifications.path()).body
            let why: String =
                "notifications: \(String(decoding: records, as: UTF8.self))\nstderr: \(store.stderr)"
            Issue.record(Comment(rawValue: why))
        }
        #expect(try await store.stop() == 0)
        let triedBefore = failing.bodies.count
        // Restarted with a short "hour": the waiting notification is put on the new schedule (its next try one of
        // these hours after its last), so it is sent now; on the first store's schedule it would wait an hour.
        store = try await start(receiving, ["--environment", "production"], retryBase: "10")
        try await eventually("the retry after the restart") { receiving.bodies.count >= 1 }
        try await eventually("it is delivered") { try await notifications(store).first?.status == .delivered }
        let record = try #require(try await notifications(store).first)
        #expect(triedBefore == 1, "the first store tried once")
        #expect(record.sendAttempts.count == 2, "the try before the restart, then the delivery")
        #expect(record.sendAttempts.first?.sendAttemptResult == .unsuccessfulHttpResponseCode)
        #expect(record.sendAttempts.last?.sendAttemptResult == .success)
        #expect(receiving.bodies.count == 1, "delivered once")
        #expect(receiving.bodies.first == failing.bodies.first, "the same signed notification")
        #expect(failing.bodies.count == triedBefore, "the stopped store tried no more")
        #expect(try await store.stop() == 0)
    }
}

/// The retry schedule and the HTTP client's classification, without a store.
@Suite struct NotificationDeliveryTests {
    @Test func retryScheduleScalesApplesHours() {
        let policy = NotificationRetryPolicy(baseMilliseconds: 10, maxAttempts: 6)
        #expect((1...6).map { policy.delay(afterFailedAttempts: $0) } == [10, 120, 240, 480, 720, nil])
        #expect(NotificationRetryPolicy(baseMilliseconds: 10, maxAttempts: 1).delay(afterFailedAttempts: 1) == nil)
    }

    @Test func clientClassifiesFailuresAsApplesSendAttemptResults() throws {
        #expect(throws: HTTPClient.Failure.self) { try HTTPClient.send("GET", "ftp://127.0.0.1/") }
        let server = try HTTPServer(host: "127.0.0.1", port: 0, handler: NotificationReceiver.Recorder(statuses: [418]))
        let response = try HTTPClient.send("POST", server.baseURL + "/x?y=1", body: Array("hi".utf8))
        #expect(response.status == 418)
        server.stop()
        // A stopped server's port may be given to another test's server at once: a held port refuses for sure.
        let refusing = try HeldPort()
        do {
            _ = try HTTPClient.send("GET", refusing.url + "/", timeout: 2)
            Issue.record("a stopped server answered")
        } catch {
            #expect(error.sendAttemptResult == .socketIssue)
        }
    }
}
