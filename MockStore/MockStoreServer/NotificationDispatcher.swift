import Foundation
import MockStoreHTTP
import StoreWire

/// Delivers the store's notifications when the ``StoreTimer`` finds them due: POSTs `{"signedPayload": JWS}` to the
/// `--notify` URL, records every attempt, and schedules the next try on Apple's schedule (scaled, production only)
/// until the receiver answers 200 to 206 or the tries run out. The store's lock is never held while a notification
/// is on the wire.
public final class NotificationDispatcher: Sendable {
    /// The most of a receiver's answer body read: 64 KiB. Only its status is used (200 to 206: delivered), so the
    /// rest of a longer body is left unread and the connection closed; a receiver answering without end (1 GiB,
    /// say) can neither grow the store nor hold the delivery thread, and its status still decides.
    public static let answerBodyLimit = 64 * 1024

    private let notifications: StoreNotifications
    private let url: String
    /// The CAs an `https://` receiver's certificate must chain to (`--notify-ca`); the system's when nil.
    private let certificates: HTTPClient.TrustedCertificates?

    /// Delivers `store`'s notifications to `url`, trusting `certificates` for an `https://` receiver, once a
    /// ``StoreTimer`` runs it.
    public init(store: MockStore, url: String, trusting certificates: HTTPClient.TrustedCertificates? = nil) {
        notifications = store.notifications
        self.url = url
        self.certificates = certificates
    }

    /// Puts the notifications an earlier run of the store tried on this run's schedule (the timer's first pass).
    func reschedulePending() {
        do {
            try notifications.reschedulePendingNotifications()
        } catch {
            FileHandle.standardError.write(Data("mockstore: notifications: \(error)\n".utf8))
        }
    }

    /// Delivers every notification due now, while `isRunning`: how many were tried, and when the next one is due on
    /// the store's clock (nil: none is waiting, or the database failed, which the next pass finds again).
    func deliverDue(while isRunning: () -> Bool) -> (tried: Int, nextDue: Int64?) {
        do {
            let (due, nextDue) = try notifications.dueNotifications()
            var tried = 0
            for notification in due {
                guard isRunning() else { break }
                let attempt = deliver(notification)
                try notifications.recordDelivery(of: notification, attempt: attempt)
                tried += 1
            }
            return (tried, nextDue)
        } catch {
            // The database is closing or failing: the timer looks again on its next pass.
            FileHandle.standardError.write(Data("mockstore: notifications: \(error)\n".utf8))
            return (0, nil)
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
