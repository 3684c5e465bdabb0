import MockStoreSQLite
import StoreWire

/// A transaction's row: its columns, in the order ``row(_:)`` reads them.
extension TransactionStore {
    static let columns = """
        id, serial, original_id, product_id, product_type, quantity, price, currency, storefront, storefront_id, \
        purchase_date, original_purchase_date, app_account_token, transaction_reason, ownership_type, origin, \
        status, finished, finished_date, revocation_date, revocation_reason, revocation_type, \
        revocation_percentage, version, change_sequence, order_id, pending_reason, refund_request, \
        \(subscriptionColumns), customer_id
        """

    static func row(_ row: SQLiteStatement) throws -> StoredTransaction {
        let originText = row.text(at: 15) ?? ""
        let statusText = row.text(at: 16) ?? ""
        let origin = StoredTransaction.Origin(rawValue: originText)
        let status = StoredTransaction.Status(rawValue: statusText)
        guard origin.isRecognized, status.isRecognized else {
            throw SQLiteError(
                code: SQLiteError.corruptCode, message: "unknown origin '\(originText)' or status '\(statusText)'",
                operation: "reading a transaction")
        }
        return StoredTransaction(
            id: row.text(at: 0) ?? "", serial: row.int64(at: 1), originalTransactionId: row.text(at: 2) ?? "",
            productId: row.text(at: 3) ?? "", productType: ProductType(rawValue: row.text(at: 4) ?? ""),
            quantity: Int(row.int64(at: 5)),
            price: row.int64(at: 6), currency: row.text(at: 7) ?? "", storefront: row.text(at: 8) ?? "",
            storefrontId: row.text(at: 9) ?? "", purchaseDate: row.int64(at: 10),
            originalPurchaseDate: row.int64(at: 11), appAccountToken: row.text(at: 12),
            transactionReason: TransactionReason(rawValue: row.text(at: 13) ?? ""),
            inAppOwnershipType: InAppOwnershipType(rawValue: row.text(at: 14) ?? ""), origin: origin,
            status: status, isFinished: row.int64(at: 17) != 0, finishedDate: row.optionalInt64(at: 18),
            revocationDate: row.optionalInt64(at: 19),
            revocationReason: row.optionalInt64(at: 20).map { RevocationReason(rawValue: Int($0)) },
            revocationType: row.text(at: 21).map(RevocationType.init(rawValue:)),
            revocationPercentage: row.optionalInt64(at: 22).map { Int($0) },
            version: row.int64(at: 23), changeSequence: row.int64(at: 24),
            orderId: row.text(at: 25) ?? TransactionStore.orderId(forSerial: row.int64(at: 1)),
            pendingReason: row.text(at: 26).map(StoredTransaction.PendingReason.init(rawValue:)),
            refundRequest: row.text(at: 27).map(StoredTransaction.RefundRequest.init(rawValue:)),
            subscription: subscriptionFields(row, from: 28), customerId: row.int64(at: 36))
    }
}
