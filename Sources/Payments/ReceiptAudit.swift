import CreditLedger
import Foundation

/// Checks that a recorded top-up is backed by the store: its receipt verifies, and it is for the transaction,
/// product and amount the entry credits.
public struct ReceiptAudit {
    public let verifier: any TransactionVerifier
    public let catalogue: PackCatalogue

    public init(verifier: any TransactionVerifier, catalogue: PackCatalogue = .app) {
        self.verifier = verifier
        self.catalogue = catalogue
    }

    /// Why `entry`'s receipt does not back it, or nil when it does.
    public func problem(with entry: LedgerEntry) -> String? {
        guard let receipt = entry.receipt else { return "no receipt" }
        do {
            let payload = try verifier.verify(receipt)
            guard payload.transactionId == entry.reference else {
                return
                    "the receipt is for transaction \(payload.transactionId), the entry for \(entry.reference ?? "none")"
            }
            guard payload.productId == entry.product else {
                return "the receipt is for \(payload.productId), the entry for \(entry.product ?? "none")"
            }
            guard let credit = try catalogue.credit(for: payload.productId, quantity: payload.quantity) else {
                return "the receipt's product \(payload.productId) is not one of the app's packs"
            }
            guard credit == entry.amount else {
                return "the receipt buys \(credit.formatted), the entry credits \(entry.amount.formatted)"
            }
            return nil
        } catch {
            return "the store signature does not verify: \(error)"
        }
    }
}
