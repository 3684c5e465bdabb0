import DurableFiles
import Foundation
import LedgerEntries
import Payments

/// The top-up flow: purchase, verify the signed transaction, record the top-up in the ledger durably, and only
/// then finish it with the store. A crash at any point loses no purchase (the store keeps it unfinished until
/// ``collect(updatesAfter:)``) and credits none twice (the entry id derives from the transaction id).
///
/// It knows no app: the packs and the bundle id are given, so any app selling credit packs uses it as it is.
public struct TopUpFlow {
    public let ledger: Ledger
    public let store: any StoreProvider
    /// Nil for a store whose purchases are all simulated: a signed transaction is then refused.
    public let verifier: (any TransactionVerifier)?
    public let catalogue: PackCatalogue
    /// The app's bundle id, which every transaction must carry.
    public let bundleID: String

    public init(
        ledger: Ledger, store: any StoreProvider, verifier: (any TransactionVerifier)?, catalogue: PackCatalogue,
        bundleID: String
    ) {
        self.ledger = ledger
        self.store = store
        self.verifier = verifier
        self.catalogue = catalogue
        self.bundleID = bundleID
    }

    /// Buys the catalogue's default product and credits it.
    public func topUp() async throws -> TopUpResult {
        try await topUp(productID: catalogue.defaultProduct)
    }

    /// Buys `productID` and credits it.
    public func topUp(productID: String) async throws -> TopUpResult {
        guard catalogue.credits[productID] != nil else {
            throw RefusedTransaction(transactionID: nil, reason: "\(productID) is not one of the app's packs")
        }
        let outcome: PurchaseOutcome
        do {
            outcome = try await store.purchase(productID, appAccountToken: ledger.accountToken)
        } catch let error as StoreError where error.mayHaveReachedTheStore {
            guard let detail = error.unansweredDetail else { throw error }
            throw PurchaseOutcomeUnknown(
                productID: productID, detail: detail, packName: catalogue.name(of: productID))
        }
        try CrashPoints.hit("topup.after-purchase")
        switch outcome {
        case .pending(let reason, let transactionID): return .pending(reason: reason, transactionID: transactionID)
        case .userCancelled: return .cancelled
        case .success(.signed(let signed)): return try await deliverPaid(signed)
        case .success(.simulated(let purchase)): return try record(purchase)
        }
    }

    /// Delivers a transaction just paid for: once it is recorded, a failure to finish it is no failure of the
    /// top-up (the credit is given; the store is told later, by the next collect).
    private func deliverPaid(_ signed: SignedTransaction) async throws -> TopUpResult {
        let (transaction, recorded) = try recordSigned(signed)
        do {
            try await finish(transaction)
        } catch let error as StoreError {
            switch recorded {
            case .credited(let entry), .alreadyCredited(let entry):
                let again = { if case .alreadyCredited = recorded { return true } else { return false } }()
                return .creditedNotFinished(entry, alreadyCredited: again, problem: error.clause)
            default: throw error
            }
        }
        return recorded
    }

    /// Verifies, records (idempotently), and finishes one signed transaction. A refused one is not finished.
    public func deliver(_ signed: SignedTransaction) async throws -> TopUpResult {
        let (transaction, recorded) = try recordSigned(signed)
        try await finish(transaction)
        return recorded
    }

    /// Verifies and records (idempotently) one signed transaction.
    /// The top-up entry that records `transaction`: its id derives from the store and the transaction, so whoever
    /// writes it (a purchase, a collect, `credit reconcile --fix`) writes the same entry once.
    func topUpDraft(_ transaction: VerifiedTransaction, credit: MicroCredits) -> EntryDraft {
        EntryDraft(
            id: EntryDraft.topUpID(store: store.name, reference: transaction.transactionID), kind: .topup,
            quantity: Int64(transaction.quantity), amount: credit,
            text: "Top-up through the \(store.displayName)",
            reference: transaction.transactionID, product: transaction.productID,
            receipt: transaction.signed.jwsRepresentation)
    }

    private func recordSigned(_ signed: SignedTransaction) throws -> (VerifiedTransaction, TopUpResult) {
        let (transaction, credit) = try check(signed)
        try CrashPoints.hit("topup.before-record")
        let outcome = try ledger.append(topUpDraft(transaction, credit: credit))
        try CrashPoints.hit("topup.after-record")
        return (transaction, TopUpResult(outcome))
    }

    /// Tells the store `transaction` was delivered.
    private func finish(_ transaction: VerifiedTransaction) async throws {
        try await store.finish(transactionID: transaction.transactionID)
        try CrashPoints.hit("topup.after-finish")
    }

    /// The verified transaction and the credit it buys, or a refusal saying why.
    func check(_ signed: SignedTransaction) throws -> (VerifiedTransaction, MicroCredits) {
        guard let verifier else {
            throw RefusedTransaction(
                transactionID: signed.unverifiedTransactionID,
                reason: "no way to verify the store's signature is configured")
        }
        let transaction: VerifiedTransaction
        do {
            transaction = try verifier.verify(signed)
        } catch .wrongEnvironment(let expected, let found) {
            // Its signature verified: its id can be named.
            throw RefusedTransaction(
                transactionID: signed.unverifiedTransactionID,
                reason: "its environment is \(found), and this store's receipts must be \(expected)")
        } catch .rootChanged {
            throw RefusedTransaction(
                transactionID: signed.unverifiedTransactionID,
                reason: "it is signed under another root certificate than the one pinned: the store's root "
                    + "certificate changed. `credit store use mockstore --url URL --root-certificate FILE` with the "
                    + "store's new root, then `credit collect`, credits it")
        } catch {
            // Its id is what it claims (unverified), named so that the user can find it at the store.
            throw RefusedTransaction(
                transactionID: signed.unverifiedTransactionID, reason: "its signature does not verify (\(error))")
        }
        // Two accounts may buy through one store (one Apple ID): each credits only its own purchases. Another
        // account's are counted apart, never refused here, whatever else is wrong with them.
        if let token = transaction.payload.appAccountToken, !token.isEmpty,
            UUID(uuidString: token) != ledger.accountToken
        {
            throw RefusedTransaction(
                transactionID: transaction.transactionID,
                reason: "it was bought by another account (its appAccountToken is not this account's)",
                isAnotherAccounts: true)
        }
        guard transaction.bundleID == bundleID else {
            throw RefusedTransaction(
                transactionID: transaction.transactionID,
                reason: "it is for the app \(transaction.bundleID), not \(bundleID)")
        }
        guard transaction.quantity >= 1,
            let credit = try catalogue.credit(for: transaction.productID, quantity: transaction.quantity)
        else {
            throw RefusedTransaction(
                transactionID: transaction.transactionID,
                reason: "\(transaction.productID) is not one of the app's packs")
        }
        return (transaction, credit)
    }

    /// Records a simulated purchase: no receipt, nothing to finish.
    private func record(_ purchase: SimulatedPurchase) throws -> TopUpResult {
        guard let credit = try catalogue.credit(for: purchase.productID) else {
            throw RefusedTransaction(
                transactionID: purchase.reference, reason: "\(purchase.productID) is not one of the app's packs")
        }
        let draft = EntryDraft(
            id: EntryDraft.topUpID(store: store.name, reference: purchase.reference), kind: .topup, amount: credit,
            text: SimulatedStore.entryText, reference: purchase.reference, product: purchase.productID)
        return TopUpResult(try ledger.append(draft))
    }
}

extension TopUpResult {
    /// A top-up written now, or found written before.
    init(_ outcome: Ledger.AppendOutcome) {
        switch outcome {
        case .appended(let entry): self = .credited(entry)
        case .alreadyRecorded(let entry): self = .alreadyCredited(entry)
        }
    }
}
