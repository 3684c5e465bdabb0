import Foundation
import MockStoreSQLite
import StoreTestControls
import StoreWire

/// The refunds part: refunds, refund requests and their decisions, and reversals (the test controls, and Send
/// Consumption Information's decisions), for one-time purchases and subscriptions alike.
public struct StoreRefunds: StorePart {
    let configuration: MockStore.Configuration
    let database: GroupCommit<TransactionStore>
    let subscriptions: StoreSubscriptions
    let familySharing: StoreFamilySharing
    let signing: StoreSigning
    let notifications: StoreNotifications

    /// The reasons a customer may give for a refund request (`consumptionRequestReason`).
    public static let consumptionRequestReasons = ConsumptionRequestReason.knownCases

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
            throw .invalid(.invalidRevocationReason(reason))
        }
        if let percentage, !(1...100_000).contains(percentage) {
            throw .invalid(.invalidRevocationPercentage(percentage))
        }
        let body = try withDatabase { database in
            try revoke(id, reason: reason, percentage: percentage, database)
        }
        notifications.due.ring()
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
            throw MockStoreError.conflict(.cannotRefund(current))
        }
        // The purchaser is refunded, not the family member: REVOKE (``StoreFamilySharing``).
        if current.inAppOwnershipType == .familyShared {
            return try familySharing.revokeFamilyShared(current, database)
        }
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
            try subscriptions.subscriptionRefunded(updated, database)
        } else {
            try notifications.enqueueNotification(.refund, transaction: updated, database)
        }
        return TestTransactionBody(
            transaction: TestControlBodies.testTransaction(updated), signedTransaction: try signing.sign(updated))
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
            throw .invalid(.invalidConsumptionRequestReason(reason))
        }
        let body = try withDatabase { database in
            let current = try existing(id, database)
            guard current.status == .purchased, current.revocationDate == nil else {
                throw MockStoreError.conflict(.cannotRequestRefund(current))
            }
            guard current.refundRequest != .requested else {
                throw MockStoreError.conflict(.refundAlreadyRequested(transactionId: id))
            }
            try database.setRefundRequest(id: id, to: .requested)
            let updated = try existing(id, database)
            // Apple asks for consumption information only for consumables and auto-renewable subscriptions; a
            // request for another type is decided without it.
            if Self.sendsConsumptionRequest(updated) {
                try notifications.announce(.consumptionRequest, transaction: updated, reason: reason, database)
            }
            if updated.subscription != nil {
                try subscriptions.subscriptionRefundRequested(updated, database)
            }
            return TestTransactionBody(transaction: TestControlBodies.testTransaction(updated))
        }
        notifications.due.ring()
        return body
    }

    /// Declines a refund request: REFUND_DECLINED; the transaction stays paid.
    public func declineRefund(id: String) throws(MockStoreError) -> TestTransactionBody {
        try requireTransactionId(id)
        let body = try withDatabase { database in try refuseRefund(id, database) }
        notifications.due.ring()
        return body
    }

    /// Declines the open refund request of `id` inside the caller's database work.
    func refuseRefund(_ id: String, _ database: TransactionStore) throws -> TestTransactionBody {
        let current = try existing(id, database)
        guard current.refundRequest == .requested else {
            throw MockStoreError.conflict(.noRefundWaiting(transactionId: id))
        }
        try database.setRefundRequest(id: id, to: .declined)
        let updated = try existing(id, database)
        try notifications.announce(.refundDeclined, transaction: updated, database)
        return TestTransactionBody(transaction: TestControlBodies.testTransaction(updated))
    }

    /// Reverses a refund (the customer's dispute went the other way): revocation fields cleared, REFUND_REVERSED,
    /// and the transaction reaches the app again through the updates feed.
    public func reverseRefund(id: String) throws(MockStoreError) -> TestTransactionBody {
        try requireTransactionId(id)
        let now = configuration.clock.now().millisecondsSince1970
        let body = try withDatabase { database in
            let current = try existing(id, database)
            guard current.revocationDate != nil else {
                throw MockStoreError.conflict(.notRefunded(transactionId: id))
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
                try subscriptions.subscriptionRefundReversed(updated, database)
            } else {
                try notifications.enqueueNotification(.refundReversed, transaction: updated, database)
            }
            return TestTransactionBody(
                transaction: TestControlBodies.testTransaction(updated), signedTransaction: try signing.sign(updated))
        }
        notifications.due.ring()
        return body
    }

    /// Whether a refund request for `transaction` makes Apple send CONSUMPTION_REQUEST.
    static func sendsConsumptionRequest(_ transaction: StoredTransaction) -> Bool {
        transaction.productType == .consumable || transaction.productType == .autoRenewableSubscription
    }
}
