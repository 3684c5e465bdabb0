import Foundation
import MockStoreHTTP
import StoreWire
import Synchronization

/// Delivers the store's notifications on a thread of its own: POSTs `{"signedPayload": JWS}` to the `--notify`
/// URL, records every attempt, and tries again on Apple's schedule (scaled, production only) until the receiver
/// answers 200 to 206 or the tries run out. The store's lock is never held while a notification is on the wire.
public final class NotificationDispatcher: Sendable {
    /// The most of a receiver's answer body read: 64 KiB. Only its status is used (200 to 206: delivered), so the
    /// rest of a longer body is left unread and the connection closed; a receiver answering without end (1 GiB,
    /// say) can neither grow the store nor hold the delivery thread, and its status still decides.
    public static let answerBodyLimit = 64 * 1024

    private let notifications: StoreNotifications
    private let url: String
    /// The CAs an `https://` receiver's certificate must chain to (`--notify-ca`); the system's when nil.
    private let certificates: HTTPClient.TrustedCertificates?
    private let running = Mutex(true)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts delivering `store`'s notifications to `url` (any already due, e.g. from before a restart, too),
    /// trusting `certificates` for an `https://` receiver.
    public init(store: MockStore, url: String, trusting certificates: HTTPClient.TrustedCertificates? = nil) {
        notifications = store.notifications
        self.url = url
        self.certificates = certificates
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "mockstore.notifications"
        thread.start()
    }

    /// Stops after the attempt in progress, if any, and waits for the thread to end. Idempotent.
    public func stop() {
        let wasRunning = running.withLock { running in
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        notifications.due.signal()
        finished.wait()
    }

    private var isRunning: Bool { running.withLock { $0 } }

    private func run() {
        do {
            try notifications.reschedulePendingNotifications()
        } catch {
            FileHandle.standardError.write(Data("mockstore: notifications: \(error)\n".utf8))
        }
        while isRunning {
            var wait: Int64 = 1_000
            do {
                let (due, nextDue) = try notifications.dueNotifications()
                for notification in due {
                    guard isRunning else { return }
                    let attempt = deliver(notification)
                    try notifications.recordDelivery(of: notification, attempt: attempt)
                }
                if !due.isEmpty { continue }  // delivering took time: look again before sleeping
                if let nextDue {
                    wait = max(1, min(wait, nextDue - notifications.configuration.clock.now().millisecondsSince1970))
                }
            } catch {
                // The database is closing or failing: wait and look again (stop() ends the loop).
                FileHandle.standardError.write(Data("mockstore: notifications: \(error)\n".utf8))
            }
            _ = notifications.due.wait(timeout: .now() + .milliseconds(Int(wait)))
        }
    }

    /// One POST of `notification`, classified as Apple's `sendAttemptResult`.
    private func deliver(_ notification: StoredNotification) -> StoredNotification.Attempt {
        let date = notifications.configuration.clock.now().millisecondsSince1970
        let body = (try? HTTPResponse.encode(SignedNotificationBody(signedPayload: notification.signedPayload))) ?? []
        let timeout = Double(notifications.configuration.retryPolicy.timeoutMilliseconds) / 1_000
        do {
            let response = try HTTPClient.send(
                "POST", url, headers: [HTTPHeader("Content-Type", "application/json")], body: body, timeout: timeout,
                trusting: certificates, maxBodyBytes: Self.answerBodyLimit)
            // Apple: any status from 200 to 206 is a successful post.
            guard (200...206).contains(response.status) else {
                return StoredNotification.Attempt(
                    date: date, result: .unsuccessfulHttpResponseCode, httpStatus: response.status,
                    detail: "the receiver answered HTTP \(response.status); only 200 to 206 count as received")
            }
            return StoredNotification.Attempt(date: date, result: .success, httpStatus: response.status)
        } catch {
            return StoredNotification.Attempt(date: date, result: error.sendAttemptResult, detail: error.detail)
        }
    }
}
