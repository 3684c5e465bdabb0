import Foundation
import MockStoreSQLite
import StoreTestControls
import StoreWire

/// Billing of auto-renewable subscriptions: recovery from billing retry (`resolveIssueForTransaction`), refund
/// reversals, StoreKit's messages. The clock brings about the failures themselves (``BillingSettings``).
public struct StoreBilling: SubscriptionStorePart {
    let configuration: MockStore.Configuration
    let database: GroupCommit<TransactionStore>
    let runtime: SubscriptionRuntime
    let subscriptions: StoreSubscriptions
    let billingSettings: StoreBillingSettings
    let signing: StoreSigning
    let notifications: StoreNotifications

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
            _ = try subscriptions.runDueEvents(until: now, database)
            let state = try subscriptions.subscription(reference, database)
            let step = try subscriptions.billingStep(event(now, state), state)
            return try subscriptions.committedRecord(step, date: now, origin: .outside, database)
        }
        notifications.due.ring()
        return record
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
                transaction: TestControlBodies.testTransaction(transaction),
                signedTransaction: try signing.sign(transaction))
        }
    }

    // MARK: Messages

    /// StoreKit's messages for the app (`Message.messages`): `billingIssue` for each subscription in billing retry
    /// (when billing-issue messages are on), `priceIncreaseConsent` for each price increase waiting for consent.
    public func messages() throws(MockStoreError) -> StoreMessagesBody {
        let now = nowMilliseconds
        return try withDatabase { database in
            _ = try subscriptions.runDueEvents(until: now, database)
            let billingIssues = try billingSettings.billingIssueMessagesEnabled(database)
            var messages: [StoreMessage] = []
            for state in try database.subscriptionStates() {
                let inRetry = state.status == .billingRetry || state.status == .billingGracePeriod
                if billingIssues, inRetry {
                    messages.append(
                        StoreMessage(
                            reason: .billingIssue, originalTransactionId: state.originalTransactionId,
                            productId: state.productId))
                }
                if state.priceIncreaseStatus == .customerHasNotResponded, state.status != .expired,
                    state.status != .revoked
                {
                    messages.append(
                        StoreMessage(
                            reason: .priceIncreaseConsent, originalTransactionId: state.originalTransactionId,
                            productId: state.autoRenewProductId))
                }
            }
            return StoreMessagesBody(messages: messages)
        }
    }
}
