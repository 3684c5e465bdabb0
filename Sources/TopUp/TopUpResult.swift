import LedgerEntries
import Payments
import StoreWire

/// What a top-up did.
public enum TopUpResult: Sendable, Equatable {
    /// Credited: the ledger entry written.
    case credited(LedgerEntry)
    /// This transaction was credited before: nothing new was written.
    case alreadyCredited(LedgerEntry)
    /// Credited (now, or before when `alreadyCredited`), but telling the store it was delivered failed
    /// (`problem`, in words, a clause to sit inside a sentence): the transaction stays unfinished at the store, and the next collect finishes it.
    /// Paid and recorded: a success, never to be bought again.
    case creditedNotFinished(LedgerEntry, alreadyCredited: Bool, problem: String)
    /// The store is waiting for something (nil when it does not say what); the credit comes when the purchase
    /// completes. `transactionID` is the store's id for the waiting purchase, when it says.
    case pending(reason: PendingReason?, transactionID: String? = nil)
    /// The user cancelled: nothing happened.
    case cancelled
}

/// Why a transaction was refused: never credited, never finished.
public struct RefusedTransaction: Error, Sendable, Equatable, CustomStringConvertible {
    public var transactionID: String?
    public var reason: String
    /// It verifies, and it is another account's purchase (its `appAccountToken` is not this account's): never
    /// this account's to credit, nor to finish.
    public var isAnotherAccounts: Bool
    public init(transactionID: String?, reason: String, isAnotherAccounts: Bool = false) {
        self.transactionID = transactionID
        self.reason = reason
        self.isAnotherAccounts = isAnotherAccounts
    }
    public var description: String {
        let which = transactionID.map { "transaction \($0)" } ?? "a transaction whose id cannot be read"
        return "\(which) was refused: \(reason); it was not credited and not finished"
    }
}

/// A purchase was sent to the store and no answer came (it timed out, or the connection was lost): it may have been
/// paid. If it was, the store holds it unfinished, and the next collect (or opening the credit screen) credits it,
/// once.
public struct PurchaseOutcomeUnknown: Error, Sendable, Equatable, CustomStringConvertible {
    /// The product asked for.
    public var productID: String
    /// What happened, in words (``Payments/StoreError/noAnswer(_:)``'s detail).
    public var detail: String

    /// The pack as a person reads it ("£5 of credit"), or the product id when it is not known.
    public var packName: String

    public init(productID: String, detail: String, packName: String? = nil) {
        self.productID = productID
        self.detail = detail
        self.packName = packName ?? productID
    }

    public var description: String {
        "the purchase of \(packName) may have gone through: it was sent to the store, and \(detail); if it was "
            + "paid, the next collect credits it, once"
    }
}
