import Foundation
import Signing
import StoreWire

/// A signed transaction as a store hands it over: a compact JWS, not yet verified. Only a ``TransactionVerifier``
/// turns it into a ``VerifiedTransaction``.
public struct SignedTransaction: Sendable, Hashable {
    /// The compact JWS, as StoreKit's `jwsRepresentation`.
    public let jwsRepresentation: String

    public init(jwsRepresentation: String) { self.jwsRepresentation = jwsRepresentation }

    /// The `transactionId` its payload claims, unverified: only to name it in a report (a refusal whose signature
    /// verified), never to credit anything.
    public var unverifiedTransactionID: String? {
        guard let jws = try? CompactJWS.parse(jwsRepresentation),
            let payload = try? JSONDecoder().decode(SignedTransactionPayload.self, from: Data(jws.payload))
        else { return nil }
        return payload.transactionId
    }
}

/// A signed transaction whose signature, app and environment have been checked, with its payload.
public struct VerifiedTransaction: Sendable, Equatable {
    /// The payload, as signed.
    public let payload: SignedTransactionPayload
    /// What was verified: kept as the receipt behind a credit.
    public let signed: SignedTransaction

    /// Made by a verifier once it has checked `signed`.
    public init(payload: SignedTransactionPayload, signed: SignedTransaction) {
        self.payload = payload
        self.signed = signed
    }

    /// The store's id for it (`transactionId`): a top-up's id derives from it.
    public var transactionID: String { payload.transactionId }
    /// The product bought (`productId`).
    public var productID: String { payload.productId }
    /// The app it was bought in (`bundleId`).
    public var bundleID: String { payload.bundleId }
    /// How many of the product were bought.
    public var quantity: Int { payload.quantity }
    /// The server environment it comes from.
    public var environment: AppStoreEnvironment { payload.environment }
    /// When the store refunded it (milliseconds since 1970), or nil.
    public var revocationDate: Int64? { payload.revocationDate }
    /// Why the store refunded it, with `revocationDate`.
    public var revocationReason: RevocationReason? { payload.revocationReason }
    /// How it was refunded, with `revocationDate`.
    public var revocationType: RevocationType? { payload.revocationType }
}

/// A purchase in the simulated store: no money, no signature, no JWS; only a reference the store made up.
public struct SimulatedPurchase: Sendable, Equatable {
    /// `SIM-` and a UUID: the top-up's id derives from it.
    public let reference: String
    public let productID: String

    public init(reference: String, productID: String) {
        self.reference = reference
        self.productID = productID
    }
}

/// What a successful purchase handed back: a store's signed transaction, or a simulated purchase that has none.
public enum StoreTransaction: Sendable, Equatable {
    case signed(SignedTransaction)
    case simulated(SimulatedPurchase)
}
