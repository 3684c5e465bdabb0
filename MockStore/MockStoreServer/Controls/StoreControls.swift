import Foundation
import MockStoreSQLite
import StoreTestControls
import StoreWire

/// The test controls under `/test/v1/`: what `SKTestSession` does in Xcode, against this store's state.
public struct StoreControls: StorePart {
    let configuration: MockStore.Configuration
    let database: GroupCommit<TransactionStore>
    let catalogue: StoreCatalogue
    let subscriptions: StoreSubscriptions
    let billing: StoreBilling
    let signing: StoreSigning
    let notifications: StoreNotifications

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
        TestTransactionsBody(
            transactions: try withDatabase { try $0.allTransactions() }.map(TestControlBodies.testTransaction))
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
        let product = try catalogue.catalogueProduct(request)
        defer { notifications.due.ring() }
        return try withDatabase { database in
            try StoreOffers.refuseOfferOnOtherProducts(request, product)
            if product.type == .nonConsumable, try database.latestActivePurchase(productId: product.id) != nil {
                throw MockStoreError.conflict(.alreadyOwned(productId: product.id))
            }
            if product.type == .autoRenewable {
                let stored = try subscriptions.subscribeOrChange(product, request, database, origin: .outside)
                return TestTransactionBody(
                    transaction: TestControlBodies.testTransaction(stored), signedTransaction: try signing.sign(stored))
            }
            let new = try catalogue.newTransaction(product, request, database, status: .purchased, origin: .outside)
            let stored = try database.insert(new, ids: configuration.transactionIDs)
            try notifications.enqueueNotification(.oneTimeCharge, transaction: stored, database)
            return TestTransactionBody(
                transaction: TestControlBodies.testTransaction(stored), signedTransaction: try signing.sign(stored))
        }
    }

    /// Approves a purchase waiting for Ask to Buy (`approveAskToBuyTransaction`): it is paid now and reaches the app
    /// through the updates feed.
    public func approve(id: String) throws(MockStoreError) -> TestTransactionBody {
        try settlePending(id: id, reason: .askToBuy, kind: .approved, settlement: .approve)
    }

    /// Declines a purchase waiting for Ask to Buy (`declineAskToBuyTransaction`): never paid, never delivered.
    public func decline(id: String) throws(MockStoreError) -> TestTransactionBody {
        try settlePending(id: id, reason: .askToBuy, kind: .declined, settlement: .decline)
    }

    /// Resolves an interrupted purchase (`resolveIssueForTransaction`): it is paid now and reaches the app through
    /// the updates feed.
    public func resolve(id: String) throws(MockStoreError) -> TestTransactionBody {
        if try billing.isSubscriptionTransaction(id) { return try billing.resolveBillingIssue(id: id) }
        return try settlePending(id: id, reason: .interrupted, kind: .resolved, settlement: .resolve)
    }

    private func settlePending(
        id: String, reason: StoredTransaction.PendingReason, kind: TransactionChange.Kind,
        settlement: MockStoreError.Conflict.Settlement
    ) throws(MockStoreError) -> TestTransactionBody {
        try requireTransactionId(id)
        let now = configuration.clock.now().millisecondsSince1970
        defer { notifications.due.ring() }
        return try withDatabase { database in
            let current = try existing(id, database)
            guard current.status == .pending, current.pendingReason == reason else {
                throw MockStoreError.conflict(.notWaiting(current, settlement))
            }
            if current.productType == .autoRenewableSubscription, kind != .declined {
                let stored = try subscriptions.settlePendingSubscription(current, kind: kind, database)
                return TestTransactionBody(
                    transaction: TestControlBodies.testTransaction(stored), signedTransaction: try signing.sign(stored))
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
                try notifications.enqueueNotification(.oneTimeCharge, transaction: updated, database)
            }
            return TestTransactionBody(
                transaction: TestControlBodies.testTransaction(updated),
                signedTransaction: updated.status == .purchased ? try signing.sign(updated) : nil)
        }
    }

    // MARK: Records

    /// Consumption information received through the Server API, oldest first.
    public func consumptionRecords() throws(MockStoreError) -> TestConsumptionBody {
        let rows = try withDatabase { try $0.consumptionReports() }
        return TestConsumptionBody(
            consumption: rows.map { id, version, received, body in
                let request = (try? JSONDecoder().decode(JSONValue.self, from: Data(body.utf8))) ?? .string(body)
                return TestConsumptionRecord(
                    transactionId: id, apiVersion: ServerAPIVersion(rawValue: version), receivedDate: received,
                    request: request)
            })
    }
}
