import MockStoreSQLite

extension TransactionStore {
    /// Forgets a subscription's state (its transactions stay): a lapsed family-shared subscription giving way to
    /// one of the customer's own, or the other way round (one subscription per group).
    func deleteSubscription(originalTransactionId: String) throws {
        try statement("DELETE FROM customer_subscriptions WHERE original_transaction_id = ?1").run([
            .text(originalTransactionId)
        ]
        )
    }
}
