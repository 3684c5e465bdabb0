import StoreTestControls
import StoreWire

/// How the test controls show the store's records: a transaction, its state in words, a notification.
enum TestControlBodies {
    static func describe(_ transaction: StoredTransaction) -> String {
        switch transaction.status {
        case .pending:
            transaction.pendingReason == .interrupted ? "an interrupted purchase" : "waiting for Ask to Buy approval"
        case .declined: "declined"
        case .purchased: transaction.revocationDate == nil ? "paid" : "refunded"
        case .unrecognized(let status): status
        }
    }

    static func testTransaction(_ transaction: StoredTransaction) -> TestTransaction {
        var shown = TestTransaction(
            transactionId: transaction.id, originalTransactionId: transaction.originalTransactionId,
            orderId: transaction.orderId, productId: transaction.productId, type: transaction.productType,
            quantity: transaction.quantity, price: transaction.price, currency: transaction.currency,
            storefront: transaction.storefront, purchaseDate: transaction.purchaseDate,
            appAccountToken: transaction.appAccountToken, origin: transaction.origin,
            status: transaction.status, pendingReason: transaction.pendingReason,
            finished: transaction.isFinished, finishedDate: transaction.finishedDate,
            revocationDate: transaction.revocationDate, revocationReason: transaction.revocationReason,
            revocationType: transaction.revocationType, refundRequest: transaction.refundRequest,
            version: transaction.version)
        shown.revocationPercentage = transaction.revocationDate == nil ? nil : transaction.revocationPercentage
        return shown
    }

    static func record(_ notification: StoredNotification) -> TestNotificationRecord {
        TestNotificationRecord(
            notificationUUID: notification.uuid, notificationType: notification.type, subtype: notification.subtype,
            transactionId: notification.transactionId, testNotificationToken: notification.testToken,
            signedPayload: notification.signedPayload, createdDate: notification.createdAt,
            status: notification.status,
            sendAttempts: notification.attempts.map {
                TestSendAttempt(
                    attemptDate: $0.date, sendAttemptResult: $0.result, httpStatus: $0.httpStatus, detail: $0.detail)
            },
            nextAttemptDate: notification.status == .pending ? notification.nextAttemptAt : nil)
    }
}
