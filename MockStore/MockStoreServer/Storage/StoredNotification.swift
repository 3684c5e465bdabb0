import StoreTestControls
import StoreWire

/// A server notification as the store keeps it: the signed payload (made once, resent as is) and every try at
/// delivering it.
public struct StoredNotification: Equatable, Sendable {
    /// Where its delivery stands: pending (a try is due at `nextAttemptAt`), delivered, failed (every try failed)
    /// or unsent (no `--notify` URL).
    public typealias Status = StoreTestControls.NotificationDeliveryState

    /// One try at delivering it.
    public struct Attempt: Equatable, Sendable {
        /// Milliseconds since 1970.
        public var date: Int64
        /// Apple's `sendAttemptResult`.
        public var result: SendAttemptResult
        public var httpStatus: Int?
        public var detail: String?

        public init(date: Int64, result: SendAttemptResult, httpStatus: Int? = nil, detail: String? = nil) {
            self.date = date
            self.result = result
            self.httpStatus = httpStatus
            self.detail = detail
        }
    }

    /// The database row number (0 before it is recorded).
    public var id: Int64
    public var uuid: String
    /// `notificationType`.
    public var type: NotificationType
    public var subtype: NotificationSubtype?
    public var transactionId: String?
    /// Set for a notification asked for with Request a Test Notification.
    public var testToken: String?
    public var signedPayload: String
    public var createdAt: Int64
    public var status: Status
    public var nextAttemptAt: Int64?
    public var attempts: [Attempt]
}
