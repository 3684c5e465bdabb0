import Foundation
import StoreTestControls
import StoreWire
import Testing

@testable import MockStoreHTTP
@testable import MockStoreServer

/// A notification receiver's answer is read only up to ``NotificationDispatcher/answerBodyLimit`` (issue 25 item
/// 16: a 1 GiB answer grew the store to 635 MB): `HTTPClient` cuts a longer body and keeps the status, and the
/// real binary records a delivery to a receiver answering 200 with 256 MiB while its memory stays small.
@Suite struct ReceiverAnswerLimitTests {
    static let limit = NotificationDispatcher.answerBodyLimit

    /// The most memory the process `pid` has held (`VmHWM` in `/proc/PID/status`), in bytes.
    static func peakMemory(of pid: pid_t) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { throw SupportFailure("no VmHWM for process \(pid) in: \(status.prefix(400))") }
        return kilobytes * 1_024
    }

    /// POSTs to `receiver` as the dispatcher does, with its limit.
    static func post(to receiver: ScriptedHTTPServer) throws -> HTTPClient.Response {
        try HTTPClient.send("POST", receiver.url, body: Array("{}".utf8), timeout: 120, maxBodyBytes: limit)
    }
}

extension ReceiverAnswerLimitTests {
    @Test(arguments: [200, 503])
    func aHugeAnswerIsCutAtTheLimitAndItsStatusKept(status: Int) throws {
        let receiver = try ScriptedHTTPServer { _ in .declaredWithStatus(status, length: 1 << 30) }
        defer { receiver.stop() }
        let response = try Self.post(to: receiver)
        #expect(response.status == status)
        #expect(response.isBodyCut)
        #expect(response.body.count == Self.limit)
        #expect(receiver.bodyBytesSent < 1 << 30, "the whole GiB was read")
    }

    @Test func anEndlessChunkedAnswerIsCutToo() throws {
        let receiver = try ScriptedHTTPServer { _ in .endless }
        defer { receiver.stop() }
        let response = try Self.post(to: receiver)
        #expect(response.status == 200)
        #expect(response.isBodyCut && response.body.count == Self.limit)
    }

    @Test func anAnswerWithinTheLimitIsReadWhole() throws {
        let body = String(repeating: "x", count: Self.limit)
        let receiver = try ScriptedHTTPServer { _ in .whole(status: 200, body: body) }
        defer { receiver.stop() }
        let response = try Self.post(to: receiver)
        #expect(response.status == 200)
        #expect(!response.isBodyCut)
        #expect(response.body == Array(body.utf8))
    }

    @Test func theStoreRecordsADeliveryToAReceiverAnswering256MiBAndStaysSmall() async throws {
        let receiver = try ScriptedHTTPServer { _ in .declared(256 << 20) }
        defer { receiver.stop() }
        let directory = try TemporaryDirectory("mockstore-huge-answer")
        // Two minutes per try: only the answer's size, never its time, may decide here. The binary: its memory is
        // measured as its process's.
        let store = try await MockStoreHarness.start(
            dataDirectory: directory.file("data"),
            extraArguments: ["--notify", receiver.url, "--notify-timeout-ms", "120000"], run: .binary)
        let pid = store.testStore.processIdentifier
        let before = try Self.peakMemory(of: pid)

        // The purchase's ONE_TIME_CHARGE is the notification (the sandbox tries once).
        let bought = try await store.post(
            DeviceAPI.purchase.path(), json: #"{"productId":"ai.voicedebrief.app.credit.500"}"#)
        #expect(bought.status == 200)
        var record: TestNotificationRecord?
        try await eventually("the try is recorded") {
            record = try await store.get(TestControls.notifications.path()).decoded(TestNotificationsBody.self)
                .notifications.first
            return record?.sendAttempts.isEmpty == false
        }
        let attempts = try #require(record).sendAttempts
        #expect(record?.status == .delivered)
        #expect(attempts.map(\.sendAttemptResult) == [.success], "\(attempts.map { $0.detail ?? "" })")
        #expect(attempts.map(\.httpStatus) == [200])

        let after = try Self.peakMemory(of: pid)
        #expect(after - before < 32 << 20, "the store's peak memory grew from \(before >> 20) to \(after >> 20) MiB")
        #expect(receiver.bodyBytesSent < 64 << 20, "the store read \(receiver.bodyBytesSent >> 20) MiB of the answer")
        #expect(try await store.stop() == 0)
    }
}
