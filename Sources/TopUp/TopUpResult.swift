import CreditLedger
import Payments

/// What a top-up did.
public enum TopUpResult: Sendable, Equatable {
    /// Credited: the ledger entry written.
    case credited(LedgerEntry)
    /// This transaction was credited before: nothing new was written.
    case alreadyCredited(LedgerEntry)
    /// The store is waiting for something (nil when it does not say what); the credit comes when the purchase
    /// completes.
    case pending(reason: PendingReason?)
    /// The user cancelled: nothing happened.
    case cancelled
}

/// Why a transaction was refused: never credited, never finished.
public struct RefusedTransaction: Error, Sendable, Equatable, CustomStringConvertible {
    public var transactionID: String?
    public var reason: String
    public init(transactionID: String?, reason: String) {
        self.transactionID = transactionID
        self.reason = reason
    }
    public var description: String {
        "transaction \(transactionID ?? "(unreadable)") was refused: \(reason); it was not credited and not finished"
    }
}
