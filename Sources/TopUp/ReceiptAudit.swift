import LedgerEntries
import Payments

/// Checks that a recorded top-up is backed by the store: its receipt verifies, and it is for the transaction,
/// product and amount the entry credits (for a re-credit after a reversed refund, no more than that amount).
public struct ReceiptAudit {
    public let verifier: any TransactionVerifier
    public let catalogue: PackCatalogue

    public init(verifier: any TransactionVerifier, catalogue: PackCatalogue) {
        self.verifier = verifier
        self.catalogue = catalogue
    }

    /// Why `entry`'s receipt does not back it, or nil when it does.
    public func problem(with entry: LedgerEntry) -> String? {
        guard let receipt = entry.receipt else { return "no receipt" }
        let transaction: VerifiedTransaction
        do {
            transaction = try verifier.verify(SignedTransaction(jwsRepresentation: receipt))
        } catch {
            return "the store signature does not verify: \(error)"
        }
        guard transaction.transactionID == entry.reference else {
            return
                "the receipt is for transaction \(transaction.transactionID), the entry for \(entry.reference ?? "none")"
        }
        guard transaction.productID == entry.product else {
            return "the receipt is for \(transaction.productID), the entry for \(entry.product ?? "none")"
        }
        let credit: MicroCredits?
        do {
            credit = try catalogue.credit(for: transaction.productID, quantity: transaction.quantity)
        } catch {
            return "the store signature does not verify: \(error)"
        }
        guard let credit else {
            return "the receipt's product \(transaction.productID) is not one of the app's packs"
        }
        // A re-credit (a refund reversed) gives back what a reversal took: at most the credit bought. The refund
        // sequence itself is `credit verify`'s other check.
        if entry.refersTo != nil {
            guard entry.amount >= .zero, entry.amount <= credit else {
                return "the receipt buys \(credit.formatted), the re-credit gives \(entry.amount.formatted)"
            }
            return nil
        }
        guard credit == entry.amount else {
            return "the receipt buys \(credit.formatted), the entry credits \(entry.amount.formatted)"
        }
        return nil
    }
}
