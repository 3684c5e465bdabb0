import Foundation
import MockStoreSQLite
import StoreKitCatalogue
import StoreWire

/// The purchases part: the device API's transactions (what StoreKit does on a phone): buying, the unfinished
/// transactions, the updates feed from the change log, finishing, and the app transaction.
public struct StorePurchases: StorePart {
    let configuration: MockStore.Configuration
    let database: GroupCommit<TransactionStore>
    let catalogue: StoreCatalogue
    let settings: StoreSettings
    let subscriptions: StoreSubscriptions
    let signing: StoreSigning
    let notifications: StoreNotifications

    /// How many transactions one page of the updates feed carries.
    public static let updatesPageSize = 50

    /// Buys a product: success with the signed transaction (and a ONE_TIME_CHARGE notification), pending when Ask
    /// to Buy is on, or `userCancelled` for an interrupted purchase (as StoreKit 2 reports one: the transaction
    /// reaches the app through the updates feed once the issue is resolved), with `pendingReason: "interrupted"`
    /// and its `transactionId` beside it, which StoreKit does not give.
    ///
    /// - Throws: ``MockStoreError`` for an unknown product (4000023), a bad quantity (4000000), an
    ///   `appAccountToken` that is not a UUID (4000183), or a failure of the store (500).
    public func purchase(_ request: PurchaseRequestBody, device: DeviceVerification = DeviceVerification())
        throws(MockStoreError) -> PurchaseResponseBody
    {
        // Checked outside the lock, reported after a simulated failure (which comes first, as before).
        let checked = Swift.Result { () throws(MockStoreError) in try catalogue.catalogueProduct(request) }
        // One call of the database, so a purchase waits for one commit.
        let response = try withDatabase { database in
            if let simulated = try settings.takeSimulatedFailure(.purchase, database) {
                // StoreKit reports a cancellation as a purchase result, not an error.
                if simulated.failure.isUserCancellation { return PurchaseResponseBody(result: .userCancelled) }
                throw MockStoreError.simulated(simulated)
            }
            let product = try checked.get()
            try subscriptions.refuseWaitingOffer(request, product, database)
            if product.type == .autoRenewable,
                try !subscriptions.subscriptionPurchaseWaits(request, groupId: product.subscription?.groupID, database)
            {
                let verification = try settings.takeFailure(.verification, database)
                let stored = try subscriptions.subscribeOrChange(product, request, database, origin: .app)
                return PurchaseResponseBody(
                    result: .success,
                    signedTransaction: try signing.sign(stored, verification: verification, device: device))
            }
            if product.type == .nonConsumable, let owned = try database.latestActivePurchase(productId: product.id) {
                // As StoreKit does: an owned non-consumable is given back, not sold twice.
                return PurchaseResponseBody(
                    result: .success,
                    signedTransaction: try signing.sign(
                        owned, verification: try settings.takeFailure(.verification, database), device: device))
            }
            let pendingReason: StoredTransaction.PendingReason? =
                try settings.askToBuy(for: request, database)
                ? .askToBuy : try settings.interruptedPurchasesEnabled(database) ? .interrupted : nil
            let new = try catalogue.newTransaction(
                product, request, database, status: pendingReason == nil ? .purchased : .pending, origin: .app,
                pendingReason: pendingReason)
            if let pendingReason {
                let stored = try database.insert(new, ids: configuration.transactionIDs)
                // StoreKit 2 reports an interrupted purchase as cancelled; Ask to Buy as pending. The reason and
                // the id go with both (a mock store addition), so an app can tell an interrupted purchase, which
                // completes later, from a real cancellation.
                return PurchaseResponseBody(
                    result: pendingReason == .interrupted ? .userCancelled : .pending,
                    pendingReason: pendingReason, transactionId: stored.id)
            }
            let verification = try settings.takeFailure(.verification, database)
            // Recorded, signed and announced in one database transaction: a signing failure records nothing.
            let signed = try database.insert(new, ids: configuration.transactionIDs) { stored in
                try notifications.enqueueNotification(.oneTimeCharge, transaction: stored, database)
                return try signing.sign(stored, verification: verification, device: device)
            }
            return PurchaseResponseBody(result: .success, signedTransaction: signed)
        }
        // The timer delivers the purchase's notification only to a `--notify` URL; without one it is recorded unsent
        // and there is nothing for the timer to do (a subscription's next event rings it by itself, through the
        // runtime), so it is not woken to look at the database again for nothing, after every purchase.
        if response.signedTransaction != nil && configuration.notificationURL != nil { notifications.due.ring() }
        return response
    }

    /// Every paid transaction the app has not finished, signed now, oldest first.
    public func unfinishedTransactions(device: DeviceVerification = DeviceVerification()) throws(MockStoreError)
        -> [String]
    {
        try withDatabase { database in
            if let simulated = try settings.takeSimulatedFailure(.appStoreSync, database) {
                throw MockStoreError.simulated(simulated)
            }
            let verification = try settings.takeFailure(.verification, database)
            return try database.unfinishedTransactions().map {
                try signing.sign($0, verification: verification, device: device)
            }
        }
    }

    /// `Transaction.all`: every paid transaction of the customer, signed now, oldest first; a finished consumable
    /// that was not refunded only with `includingConsumableHistory` (as Info.plist's
    /// `SKIncludeConsumableInAppPurchaseHistory`).
    public func everyTransaction(
        includingConsumableHistory: Bool = false, device: DeviceVerification = DeviceVerification()
    ) throws(MockStoreError) -> [String] {
        try withDatabase { database in
            if let simulated = try settings.takeSimulatedFailure(.appStoreSync, database) {
                throw MockStoreError.simulated(simulated)
            }
            let verification = try settings.takeFailure(.verification, database)
            return try database.allTransactions().filter { transaction in
                guard transaction.status == .purchased else { return false }
                let settled = transaction.productType == .consumable && transaction.isFinished
                return includingConsumableHistory || !settled || transaction.revocationDate != nil
            }.map {
                try signing.sign($0, verification: verification, device: device)
            }
        }
    }

    /// The transactions created or changed outside a purchase call after `cursor` (an approved Ask to Buy, a
    /// resolved interrupted purchase, an outside purchase, a refund or its reversal), each once in its latest
    /// state, signed now; and the cursor to resume from. No cursor, as `Transaction.updates` at launch: every
    /// unfinished transaction, once, and the cursor of now. A cursor beyond anything this store has numbered (its
    /// data was wiped) is treated as none.
    ///
    /// - Throws: ``MockStoreError``: 4000000 for a cursor that is not a number, a simulated `appStoreSync`
    ///   failure, a failure of the store.
    public func updates(after cursor: String?, device: DeviceVerification = DeviceVerification())
        throws(MockStoreError) -> TransactionUpdatesBody
    {
        var after: Int64 = -1
        if let cursor {
            guard let value = Int64(cursor), value >= 0 else {
                throw .invalid(.invalidCursor(cursor))
            }
            after = value
        }
        return try withDatabase { database in
            if let simulated = try settings.takeSimulatedFailure(.appStoreSync, database) {
                throw MockStoreError.simulated(simulated)
            }
            let highWater = try database.changeSequenceHighWater()
            let verification = try settings.takeFailure(.verification, database)
            if after < 0 || after > highWater {
                let unfinished = try database.unfinishedTransactions().map {
                    try signing.sign($0, verification: verification, device: device)
                }
                return TransactionUpdatesBody(signedTransactions: unfinished, cursor: String(highWater), hasMore: false)
            }
            let page = try database.updates(after: after, limit: Self.updatesPageSize)
            let signed = try page.updates.map { try signing.sign($0.0, verification: verification, device: device) }
            let cursor = page.hasMore ? (page.updates.last?.1 ?? after) : highWater
            return TransactionUpdatesBody(signedTransactions: signed, cursor: String(cursor), hasMore: page.hasMore)
        }
    }

    /// Finishes a transaction; finishing one twice is fine.
    ///
    /// - Throws: ``MockStoreError``: 4000006 for an id that is not numeric, 4040010 for an unknown one.
    public func finish(transactionId: String) throws(MockStoreError) {
        guard Self.isTransactionId(transactionId) else { throw .invalidTransactionId(transactionId) }
        // Committed, not waiting for the flush: a finish lost in a power cut is harmless (the transaction shows up
        // unfinished again, and finishing is idempotent); the next purchase's flush makes it durable.
        let outcome = try withDatabase(durability: .committed) { database in
            if let simulated = try settings.takeSimulatedFailure(.finish, database) {
                throw MockStoreError.simulated(simulated)
            }
            if let transaction = try database.transaction(id: transactionId) {
                try database.adopt(transaction)
            }
            return try database.finish(id: transactionId, at: configuration.clock.now().millisecondsSince1970)
        }
        if outcome == .notFound {
            throw .transactionNotFound
        }
    }

    /// `AppTransaction.shared` for the device API: signed now with `device`'s verification fields. A simulated
    /// `verification` failure makes it unverifiable, as it does every JWS the device API hands out.
    public func deviceAppTransaction(device: DeviceVerification = DeviceVerification()) throws(MockStoreError)
        -> SignedAppTransactionBody
    {
        try withDatabase { database in
            if let simulated = try settings.takeSimulatedFailure(.appTransaction, database) {
                throw MockStoreError.simulated(simulated)
            }
            let verification = try settings.takeFailure(.verification, database)
            return SignedAppTransactionBody(
                signedAppTransaction: try signing.signAppTransaction(device: device, verification: verification))
        }
    }
}
