import Foundation
import StoreWire

/// The test controls under `/test/v1/`: what `SKTestSession` does in Xcode, against this store's state.
extension MockStore {
    /// The reasons a customer may give for a refund request (`consumptionRequestReason`).
    public static let consumptionRequestReasons = ConsumptionRequestReason.knownCases

    // MARK: Setup

    /// Back to the catalogue's defaults (`resetToDefaultState()`): no transactions, no runtime settings or
    /// failures, no consumption information or notifications. Ids, order ids and cursors are never reused.
    public func reset() throws(MockStoreError) {
        try withDatabase { try $0.resetToDefaults() }
    }

    /// Removes every transaction (`clearTransactions()`); settings and failures stay.
    public func clearTransactions() throws(MockStoreError) {
        try withDatabase { try $0.deleteAllTransactions() }
    }

    /// Every transaction, oldest first (`allTransactions()`).
    public func testTransactions() throws(MockStoreError) -> TestTransactionsBody {
        TestTransactionsBody(transactions: try allTransactions().map(Self.testTransaction))
    }

    /// Removes one transaction (`deleteTransaction(identifier:)`).
    public func deleteTransaction(id: String) throws(MockStoreError) {
        try requireTransactionId(id)
        let deleted = try withDatabase { database in
            guard let transaction = try database.transaction(id: id) else { return false }
            // With --customer, only that customer's.
            try database.adopt(transaction)
            return try database.delete(id: id)
        }
        guard deleted else { throw .transactionNotFound }
    }

    // MARK: Purchases

    /// A purchase made outside the app (`buyProduct(identifier:)`): paid at once, whatever Ask to Buy says,
    /// announced by ONE_TIME_CHARGE and delivered to the app through the updates feed.
    public func buyOutside(_ request: PurchaseRequestBody) throws(MockStoreError) -> TestTransactionBody {
        let product = try catalogueProduct(request)
        defer { notificationsDue.signal() }
        return try withDatabase { database in
            try Self.refuseOfferOnOtherProducts(request, product)
            if product.type == .nonConsumable, try database.latestActivePurchase(productId: product.id) != nil {
                throw MockStoreError.conflict("\(product.id) is a non-consumable the customer already owns.")
            }
            if product.type == .autoRenewable {
                let stored = try subscribeOrChange(product, request, database, origin: .outside)
                return TestTransactionBody(
                    transaction: Self.testTransaction(stored), signedTransaction: try sign(stored))
            }
            let new = try newTransaction(product, request, database, status: .purchased, origin: .outside)
            let stored = try database.insert(new, ids: configuration.transactionIDs)
            try enqueueNotification(.oneTimeCharge, transaction: stored, database)
            return TestTransactionBody(transaction: Self.testTransaction(stored), signedTransaction: try sign(stored))
        }
    }

    /// Approves a purchase waiting for Ask to Buy (`approveAskToBuyTransaction`): it is paid now and reaches the app
    /// through the updates feed.
    public func approve(id: String) throws(MockStoreError) -> TestTransactionBody {
        try settlePending(id: id, reason: .askToBuy, kind: .approved, verb: "approve")
    }

    /// Declines a purchase waiting for Ask to Buy (`declineAskToBuyTransaction`): never paid, never delivered.
    public func decline(id: String) throws(MockStoreError) -> TestTransactionBody {
        try settlePending(id: id, reason: .askToBuy, kind: .declined, verb: "decline")
    }

    /// Resolves an interrupted purchase (`resolveIssueForTransaction`): it is paid now and reaches the app through
    /// the updates feed.
    public func resolve(id: String) throws(MockStoreError) -> TestTransactionBody {
        if try isSubscriptionTransaction(id) { return try resolveBillingIssue(id: id) }
        return try settlePending(id: id, reason: .interrupted, kind: .resolved, verb: "resolve")
    }

    private func settlePending(
        id: String, reason: StoredTransaction.PendingReason, kind: TransactionChange.Kind, verb: String
    ) throws(MockStoreError) -> TestTransactionBody {
        try requireTransactionId(id)
        let now = configuration.clock.now().millisecondsSince1970
        defer { notificationsDue.signal() }
        return try withDatabase { database in
            let current = try existing(id, database)
            guard current.status == .pending, current.pendingReason == reason else {
                let waiting = reason == .askToBuy ? "for Ask to Buy approval" : "as an interrupted purchase"
                throw MockStoreError.conflict(
                    "Cannot \(verb) transaction \(id): it is \(Self.describe(current)), not waiting \(waiting).")
            }
            if current.productType == .autoRenewableSubscription, kind != .declined {
                let stored = try settlePendingSubscription(current, kind: kind, database)
                return TestTransactionBody(
                    transaction: Self.testTransaction(stored), signedTransaction: try sign(stored))
            }
            let updated: StoredTransaction?
            if kind == .declined {
                updated = try database.update(id: id, kind: kind, date: now, assignments: "status = 'declined'")
            } else {
                // The purchase happens now: that is its purchase date.
                updated = try database.update(
                    id: id, kind: kind, date: now,
                    assignments: "status = 'purchased', purchase_date = ?2, original_purchase_date = ?2",
                    values: [.integer(now)])
            }
            guard let updated else { throw MockStoreError.transactionNotFound }
            if updated.status == .purchased {
                // Paid now: the one-time charge happens here.
                try enqueueNotification(.oneTimeCharge, transaction: updated, database)
            }
            return TestTransactionBody(
                transaction: Self.testTransaction(updated),
                signedTransaction: updated.status == .purchased ? try sign(updated) : nil)
        }
    }

    // MARK: Refunds

    /// Refunds a paid transaction at once (`refundTransaction(identifier:)`, or granting a refund request):
    /// `revocationDate` now, `revocationReason` 0 (other) or 1 (an issue in the app), `REFUND_FULL` with
    /// `revocationPercentage` 100000, or with `percentage` (milliunits, 1 to 100000) `REFUND_PRORATED` with that
    /// share. Sends REFUND (for a subscription's transaction, then DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_DISABLED
    /// when auto-renew was on) and reaches the app through the updates feed.
    public func refund(id: String, reason: RevocationReason?, percentage: Int? = nil) throws(MockStoreError)
        -> TestTransactionBody
    {
        try requireTransactionId(id)
        let reason = reason ?? .refundedForOtherReason
        guard reason.isRecognized else {
            throw .badRequest("Invalid revocationReason \(reason): 0 (other) or 1 (an issue in the app).")
        }
        if let percentage, !(1...100_000).contains(percentage) {
            throw .badRequest(
                "Invalid revocationPercentage \(percentage): milliunits from 1 to 100000 (50000 is 50%).")
        }
        let body = try withDatabase { database in
            try revoke(id, reason: reason, percentage: percentage, database)
        }
        notificationsDue.signal()
        return body
    }

    /// Revokes `id` inside the caller's database work: the refund itself, its REFUND notification and, if a refund
    /// request was open, its granting.
    func revoke(_ id: String, reason: RevocationReason, percentage: Int?, _ database: TransactionStore) throws
        -> TestTransactionBody
    {
        let now = configuration.clock.now().millisecondsSince1970
        let current = try existing(id, database)
        guard current.status == .purchased, current.revocationDate == nil else {
            throw MockStoreError.conflict("Cannot refund transaction \(id): it is \(Self.describe(current)).")
        }
        // The purchaser is refunded, not the family member: REVOKE (``MockStore+FamilySharing``).
        if current.inAppOwnershipType == .familyShared { return try revokeFamilyShared(current, database) }
        if current.refundRequest == .requested {
            try database.setRefundRequest(id: id, to: .granted)
        }
        guard
            let updated = try database.update(
                id: id, kind: .revoked, date: now,
                assignments: """
                    revocation_date = ?2, revocation_reason = ?3, revocation_type = ?4, revocation_percentage = ?5
                    """,
                values: [
                    .integer(now), .integer(Int64(reason.rawValue)),
                    .text((percentage == nil ? RevocationType.refundFull : .refundProrated).rawValue),
                    .integer(Int64(percentage ?? 100_000)),
                ])
        else { throw MockStoreError.transactionNotFound }
        if updated.subscription != nil {
            try subscriptionRefunded(updated, database)
        } else {
            try enqueueNotification(.refund, transaction: updated, database)
        }
        return TestTransactionBody(transaction: Self.testTransaction(updated), signedTransaction: try sign(updated))
    }

    /// The customer asks for a refund: the store sends CONSUMPTION_REQUEST (with `reason`) and waits for a test
    /// control to grant it (``refund(id:reason:)``) or decline it (``declineRefund(id:)``). For a subscription's
    /// transaction the App Store also turns auto-renew off (DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_DISABLED).
    public func requestRefund(id: String, reason: ConsumptionRequestReason?) throws(MockStoreError)
        -> TestTransactionBody
    {
        try requireTransactionId(id)
        let reason = reason ?? .unintendedPurchase
        guard reason.isRecognized else {
            throw .badRequest(
                "Invalid consumptionRequestReason \"\(reason)\" (one of "
                    + Self.consumptionRequestReasons.map(\.rawValue).joined(separator: ", ") + ").")
        }
        let body = try withDatabase { database in
            let current = try existing(id, database)
            guard current.status == .purchased, current.revocationDate == nil else {
                throw MockStoreError.conflict(
                    "Cannot request a refund of transaction \(id): it is \(Self.describe(current)).")
            }
            guard current.refundRequest != .requested else {
                throw MockStoreError.conflict("A refund of transaction \(id) is already requested.")
            }
            try database.setRefundRequest(id: id, to: .requested)
            let updated = try existing(id, database)
            // Apple asks for consumption information only for consumables and auto-renewable subscriptions; a
            // request for another type is decided without it.
            if Self.sendsConsumptionRequest(updated) {
                try announce(.consumptionRequest, transaction: updated, reason: reason, database)
            }
            if updated.subscription != nil {
                try subscriptionRefundRequested(updated, database)
            }
            return TestTransactionBody(transaction: Self.testTransaction(updated))
        }
        notificationsDue.signal()
        return body
    }

    /// Declines a refund request: REFUND_DECLINED; the transaction stays paid.
    public func declineRefund(id: String) throws(MockStoreError) -> TestTransactionBody {
        try requireTransactionId(id)
        let body = try withDatabase { database in try refuseRefund(id, database) }
        notificationsDue.signal()
        return body
    }

    /// Declines the open refund request of `id` inside the caller's database work.
    func refuseRefund(_ id: String, _ database: TransactionStore) throws -> TestTransactionBody {
        let current = try existing(id, database)
        guard current.refundRequest == .requested else {
            throw MockStoreError.conflict("No refund of transaction \(id) is waiting for a decision.")
        }
        try database.setRefundRequest(id: id, to: .declined)
        let updated = try existing(id, database)
        try announce(.refundDeclined, transaction: updated, database)
        return TestTransactionBody(transaction: Self.testTransaction(updated))
    }

    /// Reverses a refund (the customer's dispute went the other way): revocation fields cleared, REFUND_REVERSED,
    /// and the transaction reaches the app again through the updates feed.
    public func reverseRefund(id: String) throws(MockStoreError) -> TestTransactionBody {
        try requireTransactionId(id)
        let now = configuration.clock.now().millisecondsSince1970
        let body = try withDatabase { database in
            let current = try existing(id, database)
            guard current.revocationDate != nil else {
                throw MockStoreError.conflict("Cannot reverse a refund of transaction \(id): it is not refunded.")
            }
            guard
                let updated = try database.update(
                    id: id, kind: .reinstated, date: now,
                    assignments: """
                        revocation_date = NULL, revocation_reason = NULL, revocation_type = NULL, \
                        revocation_percentage = NULL
                        """)
            else { throw MockStoreError.transactionNotFound }
            if updated.subscription != nil {
                try subscriptionRefundReversed(updated, database)
            } else {
                try enqueueNotification(.refundReversed, transaction: updated, database)
            }
            return TestTransactionBody(transaction: Self.testTransaction(updated), signedTransaction: try sign(updated))
        }
        notificationsDue.signal()
        return body
    }

    // MARK: Records

    /// Consumption information received through the Server API, oldest first.
    public func consumptionRecords() throws(MockStoreError) -> TestConsumptionBody {
        let rows = try withDatabase { try $0.consumptionReports() }
        return TestConsumptionBody(
            consumption: rows.map { id, version, received, body in
                let request = (try? JSONDecoder().decode(JSONValue.self, from: Data(body.utf8))) ?? .string(body)
                return TestConsumptionRecord(
                    transactionId: id, apiVersion: version, receivedDate: received, request: request)
            })
    }

    /// Every notification the store made, oldest first, with each delivery attempt.
    public func notificationRecords() throws(MockStoreError) -> TestNotificationsBody {
        TestNotificationsBody(notifications: try withDatabase { try $0.notifications() }.map(Self.record))
    }

    // MARK: Helpers

    /// Whether a refund request for `transaction` makes Apple send CONSUMPTION_REQUEST.
    static func sendsConsumptionRequest(_ transaction: StoredTransaction) -> Bool {
        transaction.productType == .consumable || transaction.productType == .autoRenewableSubscription
    }

    func requireTransactionId(_ id: String) throws(MockStoreError) {
        guard Self.isTransactionId(id) else { throw .invalidTransactionId(id) }
    }

    /// Transaction `id`, whose customer the database acts for from now on (a control given a transaction id acts for
    /// its customer; one naming another customer is refused, 4040010).
    func existing(_ id: String, _ database: TransactionStore) throws -> StoredTransaction {
        guard let transaction = try database.transaction(id: id) else { throw MockStoreError.transactionNotFound }
        try database.adopt(transaction)
        return transaction
    }

    static func describe(_ transaction: StoredTransaction) -> String {
        switch transaction.status {
        case .pending:
            transaction.pendingReason == .interrupted ? "an interrupted purchase" : "waiting for Ask to Buy approval"
        case .declined: "declined"
        case .purchased: transaction.revocationDate == nil ? "paid" : "refunded"
        }
    }

    static func testTransaction(_ transaction: StoredTransaction) -> TestTransaction {
        var shown = TestTransaction(
            transactionId: transaction.id, originalTransactionId: transaction.originalTransactionId,
            orderId: transaction.orderId, productId: transaction.productId, type: transaction.productType,
            quantity: transaction.quantity, price: transaction.price, currency: transaction.currency,
            storefront: transaction.storefront, purchaseDate: transaction.purchaseDate,
            appAccountToken: transaction.appAccountToken, origin: transaction.origin.rawValue,
            status: transaction.status.rawValue, pendingReason: transaction.pendingReason,
            finished: transaction.isFinished, finishedDate: transaction.finishedDate,
            revocationDate: transaction.revocationDate, revocationReason: transaction.revocationReason,
            revocationType: transaction.revocationType, refundRequest: transaction.refundRequest?.rawValue,
            version: transaction.version)
        shown.revocationPercentage = transaction.revocationDate == nil ? nil : transaction.revocationPercentage
        return shown
    }

    static func record(_ notification: StoredNotification) -> TestNotificationRecord {
        TestNotificationRecord(
            notificationUUID: notification.uuid, notificationType: notification.type, subtype: notification.subtype,
            transactionId: notification.transactionId, testNotificationToken: notification.testToken,
            signedPayload: notification.signedPayload, createdDate: notification.createdAt,
            status: notification.status.rawValue,
            sendAttempts: notification.attempts.map {
                TestSendAttempt(
                    attemptDate: $0.date, sendAttemptResult: $0.result, httpStatus: $0.httpStatus, detail: $0.detail)
            },
            nextAttemptDate: notification.status == .pending ? notification.nextAttemptAt : nil)
    }
}
