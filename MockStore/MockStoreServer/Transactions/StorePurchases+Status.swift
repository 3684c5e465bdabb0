import StoreWire

extension StorePurchases {
    /// What became of the purchase `transactionId` the store answered pending (a mock store addition: StoreKit tells
    /// an app neither a decline nor a lapse), so an app can stop showing a declined Ask to Buy request as waiting.
    ///
    /// - Throws: ``MockStoreError`` for an id that is not a transaction id (4000006) or no such transaction (4040010).
    public func purchaseStatus(transactionId: String) throws(MockStoreError) -> PurchaseStatusBody {
        guard Self.isTransactionId(transactionId) else { throw .invalidTransactionId(transactionId) }
        let stored = try withDatabase(durability: .committed) { database in
            // Another customer's purchase is not this device's to see.
            let stored = try database.transaction(id: transactionId)
            try stored.map(database.adopt)
            return stored
        }
        guard let stored else { throw .transactionNotFound }
        return PurchaseStatusBody(
            transactionId: stored.id, status: stored.status, pendingReason: stored.pendingReason)
    }
}
