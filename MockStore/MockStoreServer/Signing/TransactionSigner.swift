import StoreWire

/// Turns a transaction payload into the compact JWS the store hands out.
public protocol TransactionSigner: Sendable {
    /// The compact JWS (`header.payload.signature`) of `payload`.
    func sign(_ payload: SignedTransactionPayload) throws -> String

    /// The compact JWS of any JSON payload (a notification), signed the same way.
    func sign(json: [UInt8]) throws -> String
}

extension TransactionSigner {
    /// Signers that only sign transactions cannot sign notifications.
    public func sign(json: [UInt8]) throws -> String {
        throw MockStoreError.internalFault(.signerCannotSignNotifications)
    }
}
