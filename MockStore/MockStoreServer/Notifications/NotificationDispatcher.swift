import Foundation
import MockStoreHTTP
import StoreWire
import Synchronization

/// Delivers the store's notifications when the ``StoreTimer`` finds them due: POSTs `{"signedPayload": JWS}` to the
/// `--notify` URL, records every attempt, and schedules the next try on Apple's schedule (scaled, production only)
/// until the receiver answers 200 to 206 or the tries run out. The store's lock is never held while a notification
/// is on the wire.
public final class NotificationDispatcher: Sendable {
    /// The most of a receiver's answer body read: 64 KiB. Only its status is used (200 to 206: delivered), so the
    /// rest of a longer body is left unread and the connection closed; a receiver answering without end (1 GiB,
    /// say) can neither grow the store nor hold the delivery thread, and its status still decides.
    public static let answerBodyLimit = 64 * 1024

    /// The most notifications on the wire to the receiver at once. Notifications about one original transaction
    /// still go one after another, in the order they were made (``DeliveryOrder``).
    public static let parallelDeliveries = 8
    /// The most notifications one look sends: the timer runs what else fell due (renewals) between looks.
    static let deliveriesPerLook = 64

    private let notifications: StoreNotifications
    private let lanes = DeliveryLanes(count: NotificationDispatcher.parallelDeliveries)
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

    /// Delivers the notifications due now that may go out together (at most ``deliveriesPerLook``, up to
    /// ``parallelDeliveries`` at once), while `isRunning`: how many were tried, and when the next one is due on the
    /// store's clock (nil: none is waiting, or the database failed, which the next pass finds again).
    func deliverDue(while isRunning: @escaping @Sendable () -> Bool) -> (tried: Int, nextDue: Int64?) {
        let due: [StoredNotification]
        let nextDue: Int64?
        do {
            (due, nextDue) = try notifications.dueNotifications(limit: Self.deliveriesPerLook)
        } catch {
            // The database is closing or failing: the timer looks again on its next pass.
            FileHandle.standardError.write(Data("mockstore: notifications: \(error)\n".utf8))
            return (0, nil)
        }
        let tried = Atomic<Int>(0)
        let certificates = certificates
        lanes.run(due.count, connect: { try HTTPConnection(trusting: certificates) }) { [self] index, connection in
            guard isRunning() else { return }
            let notification = due[index]
            let signed: String
            do {
                signed = try notifications.sealed(notification)
            } catch {
                FileHandle.standardError.write(Data("mockstore: notifications: \(error)\n".utf8))
                return
            }
            let attempt = deliver(signed, on: &connection)
            do {
                try notifications.recordDelivery(of: notification, attempt: attempt, signed: signed)
                tried.add(1, ordering: .relaxed)
            } catch {
                FileHandle.standardError.write(Data("mockstore: notifications: \(error)\n".utf8))
            }
        }
        return (tried.load(ordering: .relaxed), nextDue)
    }

    /// One POST of the notification signed `signedPayload`, on the lane's `connection` (made again after a
    /// failure), classified as Apple's `sendAttemptResult`.
    private func deliver(_ signedPayload: String, on connection: inout HTTPConnection?) -> StoredNotification.Attempt {
        let date = notifications.configuration.clock.now().millisecondsSince1970
        let body = (try? HTTPResponse.encode(SignedNotificationBody(signedPayload: signedPayload))) ?? []
        let timeout = Double(notifications.configuration.retryPolicy.timeoutMilliseconds) / 1_000
        do throws(HTTPClient.Failure) {
            guard let kept = connection else { throw HTTPClient.Failure(kind: .other, detail: "libcurl cannot start") }
            let response: HTTPClient.Response
            do throws(HTTPClient.Failure) {
                response = try kept.send(
                    "POST", url, headers: [HTTPHeader("Content-Type", "application/json")], body: body,
                    timeout: timeout, maxBodyBytes: Self.answerBodyLimit)
            } catch {
                connection = nil  // a fresh connection for the lane's next try
                throw error
            }
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
