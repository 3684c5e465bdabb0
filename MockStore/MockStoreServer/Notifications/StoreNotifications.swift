import Clocks
import Foundation
import MockStoreHTTP
import MockStoreSQLite
import StoreWire

/// App Store Server Notifications V2: made by the controls and the Server API, delivered by a
/// ``NotificationDispatcher``.
public struct StoreNotifications: StorePart {
    let configuration: MockStore.Configuration
    let database: GroupCommit<TransactionStore>
    let signing: StoreSigning
    /// Rung when a notification is due now: the store's one wake, which the ``StoreTimer`` waits on.
    let due: ClockWake

    /// Records a notification of `type` about `transaction` (none for TEST), its claims made now; due at once when
    /// the store has a `--notify` URL, else kept as `unsent`. The caller signals ``notificationsDue`` after the
    /// lock. It is signed when first read from the store (``DeferredNotification``): every read through
    /// ``TransactionStore`` gives it signed, while the value returned here holds the deferred form in
    /// `signedPayload`.
    @discardableResult
    func enqueueNotification(
        _ type: NotificationType, transaction: StoredTransaction? = nil, reason: ConsumptionRequestReason? = nil,
        testToken: String? = nil,
        _ database: TransactionStore
    ) throws -> StoredNotification {
        let now = configuration.clock.now().millisecondsSince1970
        let uuid = RandomUUID.make().uuidString.lowercased()
        let data = NotificationData(
            environment: configuration.environment, appAppleId: configuration.appAppleIdInAnswers,
            bundleId: configuration.bundleId,
            bundleVersion: transaction == nil ? nil : configuration.bundleVersion,
            signedTransactionInfo: transaction == nil ? nil : DeferredNotification.placeholder,
            consumptionRequestReason: reason)
        let payload = NotificationPayload(
            notificationType: type, notificationUUID: uuid, data: data, signedDate: now)
        let deferred = DeferredNotification(
            payload: String(decoding: try HTTPResponse.encode(payload), as: UTF8.self),
            transaction: try transaction.map { String(decoding: try signing.serverClaims($0), as: UTF8.self) })
        let notification = StoredNotification(
            id: 0, uuid: uuid, type: type, subtype: nil, transactionId: transaction?.id, testToken: testToken,
            signedPayload: deferred.stored(), createdAt: now,
            status: configuration.notificationURL == nil ? .unsent : .pending,
            nextAttemptAt: configuration.notificationURL == nil ? nil : now, attempts: [])
        try database.insertNotification(notification)
        return notification
    }

    /// Up to `limit` notifications due now that the dispatcher may send together (the earliest pending one of each
    /// original transaction, see ``DeliveryOrder``), still unsigned if they were recorded so (sign them with
    /// ``sealed(_:)``), and when the next one not yet due is due.
    public func dueNotifications(limit: Int) throws(MockStoreError) -> (due: [StoredNotification], nextDue: Int64?) {
        let now = configuration.clock.now().millisecondsSince1970
        return try withDatabase { try $0.dueNotifications(now: now, limit: limit) }
    }

    /// The JWS of `notification`: its stored one, or, for one recorded unsigned (``DeferredNotification``), signed
    /// now, outside the store's lock, so that signing a wave of notifications holds up no purchase.
    func sealed(_ notification: StoredNotification) throws -> String {
        guard DeferredNotification.isDeferred(notification.signedPayload) else { return notification.signedPayload }
        return try DeferredNotification.seal(
            notification.signedPayload, signer: configuration.serverSigner ?? configuration.signer)
    }

    /// Puts every pending notification that was tried before (by an earlier run of the store) on this run's
    /// schedule: its next try ``Configuration/retryPolicy``'s delay after its last, or failed when this run allows
    /// no more tries. So a store restarted with a shorter `--notify-retry-base-ms` sends what is waiting sooner.
    public func reschedulePendingNotifications() throws(MockStoreError) {
        guard configuration.isProduction else { return }
        let policy = configuration.retryPolicy
        try withDatabase { database in
            try database.reschedulePendingNotifications { failed, last in
                policy.delay(afterFailedAttempts: failed).map { last + $0 }
            }
        }
    }

    /// Records how one delivery attempt went and schedules the next under ``Configuration/retryPolicy``; `signed`:
    /// the JWS sent, kept when the notification was stored unsigned.
    ///
    /// Committed, not waited for on the disk: a power cut that loses the record only makes the notification go out
    /// again, as Apple may send one twice; the dispatcher's tries in parallel share one commit.
    public func recordDelivery(
        of notification: StoredNotification, attempt: StoredNotification.Attempt, signed: String? = nil
    ) throws(MockStoreError) {
        let delivered = attempt.result == .success
        let failedAttempts = notification.attempts.count + 1
        // Apple retries only in production; in the sandbox a notification is tried once.
        let delay =
            delivered || !configuration.isProduction
            ? nil : configuration.retryPolicy.delay(afterFailedAttempts: failedAttempts)
        let status: StoredNotification.Status = delivered ? .delivered : delay == nil ? .failed : .pending
        let sealed = signed.flatMap { $0 == notification.signedPayload ? nil : (notification.signedPayload, $0) }
        try withDatabase(durability: .committed) { database in
            try database.recordAttempt(
                notificationUUID: notification.uuid, attempt: attempt, status: status,
                nextAttemptAt: delay.map { attempt.date + $0 }, sealed: sealed)
        }
    }

    // MARK: Subscriptions

    /// A notification about `transaction`: for a subscription's, with its renewal info and status (as Apple sends
    /// CONSUMPTION_REQUEST and REFUND_DECLINED for subscriptions); else as for a one-time purchase.
    func announce(
        _ type: NotificationType, transaction: StoredTransaction, reason: ConsumptionRequestReason? = nil,
        _ database: TransactionStore
    ) throws {
        guard let group = transaction.subscription?.subscriptionGroupIdentifier,
            let state = try database.subscriptionState(groupId: group)
        else {
            try enqueueNotification(type, transaction: transaction, reason: reason, database)
            return
        }
        try enqueueSubscriptionNotification(
            SubscriptionNotice(type), transaction: transaction, state: state, date: nowMilliseconds,
            consumptionRequestReason: reason, database)
    }

    /// Records a subscription notification: the transaction, the renewal info and the status in its data.
    func enqueueSubscriptionNotification(
        _ notice: SubscriptionNotice, transaction: StoredTransaction, state: SubscriptionState, date: Int64,
        consumptionRequestReason: ConsumptionRequestReason? = nil, _ database: TransactionStore
    ) throws {
        let now = nowMilliseconds
        let uuid = UUID().uuidString.lowercased()
        var data = NotificationData(
            environment: configuration.environment, appAppleId: configuration.appAppleIdInAnswers,
            bundleId: configuration.bundleId, bundleVersion: configuration.bundleVersion,
            signedTransactionInfo: try signing.serverSign(transaction),
            consumptionRequestReason: consumptionRequestReason)
        data.signedRenewalInfo = try signing.signRenewalInfo(state, signedDate: date)
        data.status = state.status
        let payload = NotificationPayload(
            notificationType: notice.type, subtype: notice.subtype, notificationUUID: uuid, data: data, signedDate: date
        )
        let signer = configuration.serverSigner ?? configuration.signer
        try database.insertNotification(
            StoredNotification(
                id: 0, uuid: uuid, type: notice.type, subtype: notice.subtype, transactionId: transaction.id,
                testToken: nil, signedPayload: try signer.sign(json: try HTTPResponse.encode(payload)),
                createdAt: date, status: configuration.notificationURL == nil ? .unsent : .pending,
                nextAttemptAt: configuration.notificationURL == nil ? nil : now, attempts: []))
    }
}
