import StoreWire

/// Turns a transaction payload into the compact JWS the store hands out.
public protocol TransactionSigner: Sendable {
    /// The compact JWS (`header.payload.signature`) of `payload`.
    func sign(_ payload: SignedTransactionPayload) throws -> String
}
