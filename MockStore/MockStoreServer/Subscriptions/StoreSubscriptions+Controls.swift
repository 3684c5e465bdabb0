import Foundation
import StoreTestControls
import StoreWire

/// The subscription test controls: what `SKTestSession` does to a subscription.
extension StoreSubscriptions {
    // MARK: Subscriptions

    /// Every subscription the store holds (`control subscriptions`).
    public func testSubscriptions() throws(MockStoreError) -> TestSubscriptionsBody {
        let now = nowMilliseconds
        return try withDatabase { database in
            _ = try runDueEvents(until: now, database)
            return TestSubscriptionsBody(
                subscriptions: try database.subscriptionStates().map { state in
                    TestSubscription(
                        originalTransactionId: state.originalTransactionId, subscriptionGroupIdentifier: state.groupId,
                        productId: state.productId, autoRenewProductId: state.autoRenewProductId,
                        autoRenewStatus: state.autoRenewEnabled ? .on : .off, status: state.status,
                        state: state.status.storeKitState, latestTransactionId: state.latestTransactionId,
                        expiresDate: state.expiresDate, expirationIntent: state.expirationIntent,
                        isEntitled: state.isEntitled(at: now), signedRenewalInfo: try signing.signRenewalInfo(state))
                })
        }
    }

    /// `forceRenewalOfSubscription(productIdentifier:)`: a new period starts now (DID_RENEW).
    public func forceRenewal(_ reference: String) throws(MockStoreError) -> TestSubscriptionEventRecord {
        try subscriptionControl(reference) { .renew(at: $0) }
    }

    /// `expireSubscription(productIdentifier:)`: the period in force ends now (EXPIRED VOLUNTARY).
    public func expireSubscription(_ reference: String) throws(MockStoreError) -> TestSubscriptionEventRecord {
        try subscriptionControl(reference) { .expire(at: $0, intent: .customerCancelled) }
    }

    /// `enableAutoRenewForTransaction` / `disableAutoRenewForTransaction`: DID_CHANGE_RENEWAL_STATUS.
    public func setAutoRenew(_ reference: String, enabled: Bool) throws(MockStoreError)
        -> TestSubscriptionEventRecord
    {
        try subscriptionControl(reference) { .setAutoRenew(enabled, at: $0) }
    }

    /// The customer changes plan to `productId` (an upgrade, downgrade or crossgrade, or cancelling a downgrade).
    public func changeSubscription(_ reference: String, to productId: String) throws(MockStoreError)
        -> TestSubscriptionEventRecord
    {
        try subscriptionControl(reference) { .changeProduct(to: productId, at: $0) }
    }

    /// Runs the control's event on the subscription `reference` names (for any control, billing ones too): a
    /// transaction id of it, or a product id of its group.
    func subscriptionControl(_ reference: String, _ event: (Int64) -> SubscriptionEvent)
        throws(MockStoreError) -> TestSubscriptionEventRecord
    {
        let now = nowMilliseconds
        let record = try withDatabase { database in
            _ = try runDueEvents(until: now, database)
            let state = try subscription(reference, database)
            return try run(event(now), on: state, origin: .outside, database)
        }
        notifications.due.ring()
        return record
    }

    /// The subscription a transaction id or product id names.
    func subscription(_ reference: String, _ database: TransactionStore) throws -> SubscriptionState {
        let group: String?
        if Self.isTransactionId(reference) {
            let transaction = try database.transaction(id: reference)
            try transaction.map(database.adopt)
            group = transaction?.subscription?.subscriptionGroupIdentifier
        } else {
            group = subscriptionLifecycle.products[reference]?.groupId
        }
        guard let group, let state = try database.subscriptionState(groupId: group) else {
            throw MockStoreError.conflict(.noSubscription(reference: reference))
        }
        return state
    }
}
