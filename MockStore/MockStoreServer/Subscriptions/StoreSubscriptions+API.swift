import Foundation
import MockStoreHTTP
import StoreKitCatalogue
import StoreWire

/// Subscriptions in the device API (entitlements, status, intro-offer eligibility) and the Server API (Get All
/// Subscription Statuses).
extension StoreSubscriptions {
    // MARK: Device API

    /// `Transaction.currentEntitlements` now, on the virtual clock: each non-consumable and non-renewing
    /// subscription owned and not refunded, and the transaction in force of each subscription that gives access
    /// now (active, or in its grace period). Consumables are never entitlements.
    public func currentEntitlements(device: DeviceVerification = DeviceVerification()) throws(MockStoreError)
        -> SignedTransactionsBody
    {
        let now = nowMilliseconds
        return try withDatabase { database in
            _ = try runDueEvents(until: now, database)
            let verification = try settings.takeFailure(.verification, database)
            var entitled: [StoredTransaction] = []
            var seen = Set<String>()
            for transaction in try database.allTransactions().reversed()
            where transaction.status == .purchased && transaction.revocationDate == nil
                && transaction.subscription == nil && transaction.productType != .consumable
                && transaction.productType != .autoRenewableSubscription
            {
                if seen.insert(transaction.productId).inserted { entitled.append(transaction) }
            }
            for state in try database.subscriptionStates() where state.isEntitled(at: now) {
                if let latest = try database.transaction(id: state.latestTransactionId), latest.revocationDate == nil {
                    entitled.append(latest)
                }
            }
            entitled.sort { $0.serial < $1.serial }
            return SignedTransactionsBody(
                signedTransactions: try entitled.map {
                    try signing.sign($0, verification: verification, device: device)
                })
        }
    }

    /// `Product.SubscriptionInfo.status` for a group: its subscription's state, latest transaction and renewal
    /// info (none when the customer never subscribed in the group).
    public func subscriptionStatus(groupId: String, device: DeviceVerification = DeviceVerification())
        throws(MockStoreError) -> SubscriptionStatusesBody
    {
        let now = nowMilliseconds
        return try withDatabase { database in
            _ = try runDueEvents(until: now, database)
            guard let state = try database.subscriptionState(groupId: groupId),
                let latest = try database.transaction(id: state.latestTransactionId)
            else { return SubscriptionStatusesBody(statuses: []) }
            return SubscriptionStatusesBody(statuses: [
                SubscriptionStatusItem(
                    state: state.status.storeKitState, signedTransaction: try signing.sign(latest, device: device),
                    signedRenewalInfo: try signing.signRenewalInfo(state, device: true))
            ])
        }
    }

    /// `Product.SubscriptionInfo.isEligibleForIntroOffer(for:)`: not once the customer had an introductory offer
    /// in the group.
    public func introOfferEligibility(groupId: String) throws(MockStoreError) -> IntroOfferEligibilityBody {
        let used = try withDatabase { try $0.subscriptionState(groupId: groupId)?.usedIntroductoryOffer ?? false }
        return IntroOfferEligibilityBody(subscriptionGroupIdentifier: groupId, isEligibleForIntroOffer: !used)
    }

    // MARK: Server API

    /// Get All Subscription Statuses: every subscription of the customer by group, filtered by `status` (1 to 5,
    /// repeatable). `transactionId` is any transaction of the customer, or the customer's `appTransactionId`.
    public func allSubscriptionStatuses(transactionId: String, statuses: [String])
        throws(MockStoreError) -> StatusResponseBody
    {
        try requireTransactionId(transactionId)
        var wanted = Set<Int>()
        for text in statuses {
            guard let value = Int(text), SubscriptionStatus(rawValue: value).isRecognized else {
                throw .serverAPI(.invalidStatusFilter)
            }
            wanted.insert(value)
        }
        let now = nowMilliseconds
        return try withDatabase { database in
            _ = try runDueEvents(until: now, database)
            // Any transaction id of the customer, or their app transaction id (as Apple takes): the answer is that
            // customer's, and only theirs.
            try actForCustomer(ofAny: transactionId, database)
            var groups: [SubscriptionGroupIdentifierItem] = []
            for state in try database.subscriptionStates()
            where wanted.isEmpty || wanted.contains(state.status.rawValue) {
                guard let latest = try database.transaction(id: state.latestTransactionId) else { continue }
                groups.append(
                    SubscriptionGroupIdentifierItem(
                        subscriptionGroupIdentifier: state.groupId,
                        lastTransactions: [
                            LastTransactionsItem(
                                status: state.status, originalTransactionId: state.originalTransactionId,
                                signedTransactionInfo: try signing.serverSign(latest),
                                signedRenewalInfo: try signing.signRenewalInfo(state))
                        ]))
            }
            return StatusResponseBody(
                environment: configuration.environment, appAppleId: configuration.appAppleIdInAnswers,
                bundleId: configuration.bundleId, data: groups)
        }
    }
}
