import Foundation
import StoreWire

/// The Server API's Get App Transaction Info and Set App Account Token.
extension StoreServerAPI {
    /// Get App Transaction Info: the app transaction of the customer who has transaction `id`, signed by the test CA.
    ///
    /// - Throws: ``MockStoreError`` 4000006 for an id that is not numeric, 4040010 for one the store does not have.
    public func appTransactionInfo(id: String) throws(MockStoreError) -> AppTransactionInfoResponseBody {
        try requireTransactionId(id)
        return try withDatabase { database in
            _ = try paid(id, database)
            return AppTransactionInfoResponseBody(signedAppTransactionInfo: try signing.signAppTransaction(device: nil))
        }
    }

    /// Set App Account Token: sets (or replaces) the `appAccountToken` of the purchase with this original
    /// transaction id; every transaction signed afterwards (device API, Server API, notifications) carries it.
    ///
    /// Its subscription's later renewals carry it too.
    ///
    /// - Throws: ``MockStoreError``: 4000006 for an id that is not numeric, 4000183 for a token that is not a UUID,
    ///   400 4000048 for an `appTransactionId`, 404 4040005 for an unknown original transaction, 4000187 for an id
    ///   that is not an original transaction id, 4000185 for a purchase shared through Family Sharing.
    public func setAppAccountToken(originalTransactionId id: String, _ request: UpdateAppAccountTokenRequestBody)
        throws(MockStoreError)
    {
        try requireTransactionId(id)
        guard UUID(uuidString: request.appAccountToken) != nil else {
            throw .serverAPI(.appAccountTokenNotUUID)
        }
        try withDatabase { database in
            if let appTransactionId = Int64(id), try database.customer(appTransactionId: appTransactionId) != nil {
                throw MockStoreError.serverAPI(.appTransactionIdNotSupported)
            }
            guard let transaction = try database.transaction(id: id), transaction.status == .purchased else {
                throw MockStoreError.serverAPI(.originalTransactionIdNotFound)
            }
            try database.adopt(transaction)
            guard transaction.originalTransactionId == transaction.id else {
                throw MockStoreError.serverAPI(.notOriginalTransactionId)
            }
            guard transaction.inAppOwnershipType != .familyShared else {
                throw MockStoreError.serverAPI(.familyTransactionNotSupported)
            }
            // As Apple documents it: a subscription's current renewal transaction and those after it take the
            // token (the renewal info's among them), its past ones do not; any other purchase is its own current.
            let current = try database.transactions(originalTransactionId: id).last ?? transaction
            try database.setAppAccountToken(id: current.id, to: request.appAccountToken)
            try database.setSubscriptionAppAccountToken(originalTransactionId: id, to: request.appAccountToken)
        }
    }
}
