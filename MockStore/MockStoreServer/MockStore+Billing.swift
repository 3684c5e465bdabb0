import Foundation
import StoreWire

/// Billing of auto-renewable subscriptions: recovery from billing retry (`resolveIssueForTransaction`), refund
/// reversals, StoreKit's messages. The clock brings about the failures themselves (``BillingSettings``).
extension MockStore {
    /// Ends a subscription's billing issue (`SKTestSession.resolveIssueForTransaction` on a subscription in
    /// billing retry): the charge succeeds now, DID_RENEW BILLING_RECOVERY. In the grace period the renewal date
    /// stays; after it, the new period starts now.
    public func recoverBilling(_ reference: String) throws(MockStoreError) -> TestSubscriptionEventRecord {
        try billingControl(reference) { now, _ in .recover(at: now) }
    }

    /// Runs a billing event (made from the date now and the subscription's state) on the subscription `reference`
    /// names (a transaction id of it, or a product id of its group) and records the step.
    func billingControl(_ reference: String, _ event: (Int64, SubscriptionState) -> BillingEvent)
        throws(MockStoreError)
        -> TestSubscriptionEventRecord
    {
        let now = nowMilliseconds
        let record = try withDatabase { database in
            _ = try runDueEvents(until: now, database)
            let state = try subscription(reference, database)
            let step = try billingStep(event(now, state), state)
            return try committedRecord(step, date: now, origin: .outside, database)
        }
        notificationsDue.signal()
        return record
    }

    /// The lifecycle's billing answer, its refusals as the store's errors.
    func billingStep(_ event: BillingEvent, _ state: SubscriptionState) throws(MockStoreError) -> SubscriptionStep {
        do throws(BillingRefusal) {
            return try subscriptionLifecycle.applyBilling(event, to: state)
        } catch {
            throw Self.storeError(error, state)
        }
    }

    static func storeError(_ refusal: BillingRefusal, _ state: SubscriptionState) -> MockStoreError {
        switch refusal {
        case .lifecycle(.unknownProduct(let id)): .invalidProductId(id)
        case .lifecycle(.otherGroup(let id)): .conflict("\(id) is in another subscription group.")
        case .lifecycle: .conflict("The subscription is not in force (expired or revoked).")
        case .conflict(let why): .conflict("Cannot do that to subscription \(state.originalTransactionId): \(why).")
        case .extensionIneligible(let why):
            .apiError(
                403, StoreErrorCode.subscriptionExtensionIneligible,
                "The subscription is not eligible for a renewal date extension: \(why).")
        case .extensionLimit(let why):
            .apiError(
                403, StoreErrorCode.subscriptionMaxExtension,
                "The subscription has had the most renewal date extensions Apple allows: \(why).")
        }
    }

    /// A reversed refund of a subscription transaction: the lifecycle learns of it (the period in force: access
    /// again, while it runs) and REFUND_REVERSED goes out with the renewal info and status.
    func subscriptionRefundReversed(_ transaction: StoredTransaction, _ database: TransactionStore) throws {
        guard let group = transaction.subscription?.subscriptionGroupIdentifier,
            let state = try database.subscriptionState(groupId: group)
        else {
            try enqueueNotification(.refundReversed, transaction: transaction, database)
            return
        }
        let date = nowMilliseconds
        let step = try billingStep(.reverseRefund(transactionId: transaction.id, at: date), state)
        try save(step, about: transaction, date: date, database)
    }

    /// Whether `id` is a subscription's transaction (`resolve` then ends a billing issue).
    func isSubscriptionTransaction(_ id: String) throws(MockStoreError) -> Bool {
        guard Self.isTransactionId(id) else { return false }
        return try withDatabase { try $0.transaction(id: id)?.subscription != nil }
    }

    /// `resolve ID` of a subscription: its billing issue ends; the answer is the transaction the recovery made.
    func resolveBillingIssue(id: String) throws(MockStoreError) -> TestTransactionBody {
        let record = try recoverBilling(id)
        return try withDatabase { database in
            guard let transaction = try database.transaction(id: record.transactionId ?? "") else {
                throw MockStoreError.transactionNotFound
            }
            try database.adopt(transaction)
            return TestTransactionBody(
                transaction: Self.testTransaction(transaction), signedTransaction: try sign(transaction))
        }
    }

    // MARK: Messages

    /// StoreKit's messages for the app (`Message.messages`): `billingIssue` for each subscription in billing retry
    /// (when billing-issue messages are on), `priceIncreaseConsent` for each price increase waiting for consent.
    public func messages() throws(MockStoreError) -> StoreMessagesBody {
        let now = nowMilliseconds
        return try withDatabase { database in
            _ = try runDueEvents(until: now, database)
            let billingIssues = try billingIssueMessagesEnabled(database)
            var messages: [StoreMessage] = []
            for state in try database.subscriptionStates() {
                let inRetry = state.status == .billingRetry || state.status == .billingGracePeriod
                if billingIssues, inRetry {
                    messages.append(
                        StoreMessage(
                            reason: "billingIssue", originalTransactionId: state.originalTransactionId,
                            productId: state.productId))
                }
                if state.priceIncreaseStatus == .customerHasNotResponded, state.status != .expired,
                    state.status != .revoked
                {
                    messages.append(
                        StoreMessage(
                            reason: "priceIncreaseConsent", originalTransactionId: state.originalTransactionId,
                            productId: state.autoRenewProductId))
                }
            }
            return StoreMessagesBody(messages: messages)
        }
    }
}
