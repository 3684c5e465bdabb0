import MockStoreSQLite
import StoreKitCatalogue
import StoreTestControls
import StoreWire

/// Family Sharing of auto-renewable subscriptions, from the family member's side: the store's customer is the
/// family member, and another member of the family (the purchaser, simulated by a test control) bought a
/// family-shareable subscription and shares it.
///
/// As Apple does it, the customer then has transactions of their own (their own `transactionId` and
/// `originalTransactionId`) with `inAppOwnershipType` `FAMILY_SHARED`: the subscription is in their entitlements,
/// it renews and expires on the clock with the purchaser's (the subscription controls act as the purchaser), each
/// step announced by the same notifications as a purchase, carrying the FAMILY_SHARED transaction. When sharing
/// ends (the purchaser stops sharing or leaves the family, or is refunded) the transaction in force is revoked
/// (`revocationType` `FAMILY_REVOKE`) and REVOKE goes out.
public struct StoreFamilySharing: SubscriptionStorePart {
    let configuration: MockStore.Configuration
    let database: GroupCommit<TransactionStore>
    let runtime: SubscriptionRuntime
    let subscriptions: StoreSubscriptions
    let settings: StoreSettings
    let signing: StoreSigning
    let notifications: StoreNotifications

    /// A family member shares `productId` with the customer (`control family-share PRODUCT`): SUBSCRIBED
    /// INITIAL_BUY (RESUBSCRIBE when shared before) with a FAMILY_SHARED transaction at the product's price, for
    /// one period from now, without an introductory offer (the purchaser's period is shared, not a new one).
    ///
    /// - Throws: ``MockStoreError`` 400 for a product that is not an auto-renewable of the catalogue, 409 for one
    ///   that is not family shareable, or when the customer has a subscription in force in the group.
    public func shareThroughFamily(productId: String) throws(MockStoreError) -> TestSubscriptionEventRecord {
        guard let product = configuration.catalogue.product(id: productId) else { throw .invalidProductId(productId) }
        guard let subscription = SubscriptionProduct(product) else {
            throw .invalid(.notShareableType(productId: productId))
        }
        guard product.familyShareable else {
            throw .conflict(.notFamilyShareable(productId: productId))
        }
        let now = nowMilliseconds
        let record = try withDatabase { database in
            _ = try subscriptions.runDueEvents(until: now, database)
            let existing = try database.subscriptionState(groupId: subscription.groupId)
            if let existing, existing.status != .expired, existing.status != .revoked {
                throw MockStoreError.conflict(.subscribedBeforeSharing)
            }
            let context = try settings.purchaseContext(appAccountToken: nil, database)
            let previous = existing?.isFamilyShared == true ? existing : nil
            var step = try lifecycleStep { () throws(SubscriptionLifecycleError) in
                try subscriptionLifecycle.subscribe(subscription.id, previous: previous, at: now, context: context)
            }
            atFullPrice(&step, product: subscription, at: now)
            step.state.isFamilyShared = true
            step.state.usedIntroductoryOffer = existing?.usedIntroductoryOffer ?? false
            if let existing, previous == nil {
                // The customer's own lapsed subscription gives way (one subscription per group).
                try database.deleteSubscription(originalTransactionId: existing.originalTransactionId)
            }
            return try subscriptions.committedRecord(step, date: now, origin: .outside, database)
        }
        notifications.due.ring()
        return record
    }

    /// Sharing ends (`control family-revoke SUBSCRIPTION`): the purchaser turned Family Sharing off for it, left
    /// the family or removed the customer from it. REVOKE.
    public func endFamilySharing(_ reference: String) throws(MockStoreError) -> TestTransactionBody {
        let now = nowMilliseconds
        let body = try withDatabase { database in
            _ = try subscriptions.runDueEvents(until: now, database)
            let state = try subscriptions.subscription(reference, database)
            guard state.isFamilyShared == true, let latest = try database.transaction(id: state.latestTransactionId)
            else {
                throw MockStoreError.conflict(.notFamilyShared(reference: reference))
            }
            return try revokeFamilyShared(latest, database)
        }
        notifications.due.ring()
        return body
    }

    /// Revokes the family-shared subscription of `transaction`: its period in force is revoked now
    /// (`revocationType` `FAMILY_REVOKE`, `revocationReason` 0), the subscription is revoked (status 5, no
    /// entitlement), and REVOKE goes out with the renewal info and status.
    func revokeFamilyShared(_ transaction: StoredTransaction, _ database: TransactionStore) throws
        -> TestTransactionBody
    {
        guard let group = transaction.subscription?.subscriptionGroupIdentifier,
            var state = try database.subscriptionState(groupId: group), state.isFamilyShared == true,
            state.status != .revoked
        else {
            throw MockStoreError.conflict(.familySharingEnded(transactionId: transaction.id))
        }
        let now = nowMilliseconds
        guard
            let updated = try database.update(
                id: state.latestTransactionId, kind: .revoked, date: now,
                assignments: "revocation_date = ?2, revocation_reason = ?3, revocation_type = ?4",
                values: [
                    .integer(now), .integer(Int64(RevocationReason.refundedForOtherReason.rawValue)),
                    .text(RevocationType.familyRevoke.rawValue),
                ])
        else { throw MockStoreError.transactionNotFound }
        state.status = .revoked
        state.revocationDate = now
        state.autoRenewEnabled = false
        state.nextOffer = nil
        try database.saveSubscription(state, nextEventAt: nil)
        runtime.noteNextEvent(try database.nextSubscriptionEventDate())
        try notifications.enqueueSubscriptionNotification(
            SubscriptionNotice(.revoke), transaction: updated, state: state, date: now, database)
        return TestTransactionBody(
            transaction: TestControlBodies.testTransaction(updated), signedTransaction: try signing.sign(updated))
    }

    /// The shared period is a full one at the product's price: no introductory offer.
    private func atFullPrice(_ step: inout SubscriptionStep, product: SubscriptionProduct, at date: Int64) {
        let expires = subscriptionLifecycle.end(of: date, product: product, offer: nil)
        step.state.currentOffer = nil
        step.state.nextOffer = nil
        step.state.expiresDate = expires
        step.state.renewalPrice = product.price
        step.newTransaction?.offer = nil
        step.newTransaction?.price = product.price
        step.newTransaction?.expiresDate = expires
    }
}
