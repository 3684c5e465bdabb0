import CreditLedger
import Foundation
import StoreWire

/// Checks a store's signed transaction and returns its payload, or throws saying why it cannot be trusted.
public protocol TransactionVerifier: Sendable {
    func verify(_ signedTransaction: String) throws -> SignedTransactionPayload
}

/// What a top-up did.
public enum TopUpResult: Sendable, Equatable {
    /// Credited: the ledger entry written.
    case credited(LedgerEntry)
    /// This transaction was credited before: nothing new was written.
    case alreadyCredited(LedgerEntry)
    /// The store is waiting for something (`askToBuy`, `interrupted`, or nil when it does not say); the credit
    /// comes when the purchase completes.
    case pending(reason: String?)
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

/// The top-up flow: purchase, verify the signed transaction, record the top-up in the ledger durably, and only
/// then finish it with the store. A crash at any point loses no purchase (the store keeps it unfinished until
/// ``collect()``) and credits none twice (the entry id derives from the transaction id).
public struct TopUpFlow {
    public let ledger: Ledger
    public let store: any StoreProvider
    public let verifier: (any TransactionVerifier)?
    public let catalogue: PackCatalogue
    public let bundleID: String

    public init(
        ledger: Ledger, store: any StoreProvider, verifier: (any TransactionVerifier)?,
        catalogue: PackCatalogue = .app, bundleID: String = "ai.voicedebrief.app"
    ) {
        self.ledger = ledger
        self.store = store
        self.verifier = verifier
        self.catalogue = catalogue
        self.bundleID = bundleID
    }

    /// Buys `productID` and credits it.
    public func topUp(productID: String = PackCatalogue.defaultProduct) async throws -> TopUpResult {
        guard catalogue.credits[productID] != nil else {
            throw RefusedTransaction(transactionID: nil, reason: "\(productID) is not one of the app's packs")
        }
        let outcome = try await store.purchase(productID, appAccountToken: nil)
        try FaultInjection.hit("topup.after-purchase")
        switch outcome {
        case .pending(let reason): return .pending(reason: reason)
        case .userCancelled: return .cancelled
        case .success(let signed):
            if store.takesMoney {
                return try await deliver(signed)
            }
            return try recordSimulated(reference: signed, productID: productID)
        }
    }

    /// What collecting found.
    public struct CollectReport: Sendable, Equatable {
        public var credited: [LedgerEntry] = []
        public var alreadyCredited: [LedgerEntry] = []
        /// Top-ups the store refunded, taken back.
        public var reversed: [LedgerEntry] = []
        public var refused: [RefusedTransaction] = []
        public var finished = 0
        /// Where the updates feed was read up to.
        public var cursor: String?
    }

    /// Collects what the store holds: first the updates feed since `cursor` (approved purchases credited, refunds
    /// taken back), then every unfinished transaction (verify, record idempotently, finish). Refused ones stay
    /// unfinished. Every step is idempotent, so a collect interrupted anywhere can simply run again.
    public func collect(updatesAfter cursor: String? = nil) async throws -> CollectReport {
        var report = CollectReport(cursor: cursor)
        guard store.takesMoney else { return report }
        let updates = try await store.updates(after: cursor)
        for signed in updates.signedTransactions {
            try await process(update: signed, into: &report)
        }
        report.cursor = updates.cursor
        for signed in try await store.unfinished() {
            do {
                let (payload, _) = try check(signed)
                if payload.revocationDate != nil {
                    try await process(update: signed, into: &report)
                    continue
                }
                switch try await deliver(signed) {
                case .credited(let entry): report.credited.append(entry)
                case .alreadyCredited(let entry): report.alreadyCredited.append(entry)
                default: break
                }
                report.finished += 1
            } catch let refused as RefusedTransaction {
                report.refused.append(refused)
            }
        }
        return report
    }

    /// One transaction from the updates feed: a refund takes the credit back once (if it was ever given); anything
    /// else is delivered like a purchase.
    private func process(update signed: String, into report: inout CollectReport) async throws {
        do {
            let (payload, credit) = try check(signed)
            guard payload.revocationDate != nil else {
                switch try await deliver(signed) {
                case .credited(let entry): report.credited.append(entry)
                case .alreadyCredited(let entry): report.alreadyCredited.append(entry)
                default: break
                }
                // A refund the store reversed: the credit taken back is given back, once.
                let reversalID = EntryDraft.reversalID(store: store.name, reference: payload.transactionId)
                if ledger.entry(id: reversalID) != nil {
                    let draft = EntryDraft(
                        id: "reinstated-\(store.name)-\(payload.transactionId)", kind: .topup,
                        quantity: Int64(payload.quantity), amount: credit, refersTo: reversalID,
                        text: "The store reversed its refund: credit given back", reference: payload.transactionId,
                        product: payload.productId, receipt: signed)
                    if case .appended(let entry) = try ledger.append(draft) { report.credited.append(entry) }
                }
                report.finished += 1
                return
            }
            let topUpID = EntryDraft.topUpID(store: store.name, reference: payload.transactionId)
            if ledger.entry(id: topUpID) != nil {
                let draft = EntryDraft(
                    id: EntryDraft.reversalID(store: store.name, reference: payload.transactionId), kind: .reversal,
                    quantity: Int64(payload.quantity), amount: try credit.negated(), refersTo: topUpID,
                    reason: payload.revocationReason.map { "revocationReason \($0)" },
                    text: "Top-up refunded by the store", reference: payload.transactionId,
                    product: payload.productId, receipt: signed)
                if case .appended(let entry) = try ledger.append(draft) { report.reversed.append(entry) }
                try FaultInjection.hit("refund.after-record")
            }
            // A refunded purchase is finished either way: there is nothing left to deliver.
            try await store.finish(transactionID: payload.transactionId)
        } catch let refused as RefusedTransaction {
            report.refused.append(refused)
        }
    }

    /// Verifies, records (idempotently), and finishes one signed transaction. A refused one is not finished.
    public func deliver(_ signed: String) async throws -> TopUpResult {
        let (payload, credit) = try check(signed)
        try FaultInjection.hit("topup.before-record")
        let draft = EntryDraft(
            id: EntryDraft.topUpID(store: store.name, reference: payload.transactionId), kind: .topup,
            quantity: Int64(payload.quantity), amount: credit, text: "Top-up through the \(store.name)",
            reference: payload.transactionId, product: payload.productId, receipt: signed)
        let outcome = try ledger.append(draft)
        try FaultInjection.hit("topup.after-record")
        try await store.finish(transactionID: payload.transactionId)
        try FaultInjection.hit("topup.after-finish")
        switch outcome {
        case .appended(let entry): return .credited(entry)
        case .alreadyRecorded(let entry): return .alreadyCredited(entry)
        }
    }

    /// The payload and the credit it buys, or a refusal saying why.
    func check(_ signed: String) throws -> (SignedTransactionPayload, MicroCredits) {
        guard let verifier else {
            throw RefusedTransaction(transactionID: nil, reason: "no way to verify the store's signature is configured")
        }
        let payload: SignedTransactionPayload
        do {
            payload = try verifier.verify(signed)
        } catch {
            throw RefusedTransaction(transactionID: nil, reason: "its signature does not verify (\(error))")
        }
        guard payload.bundleId == bundleID else {
            throw RefusedTransaction(
                transactionID: payload.transactionId, reason: "it is for the app \(payload.bundleId), not \(bundleID)")
        }
        guard payload.quantity >= 1,
            let credit = try catalogue.credit(for: payload.productId, quantity: payload.quantity)
        else {
            throw RefusedTransaction(
                transactionID: payload.transactionId, reason: "\(payload.productId) is not one of the app's packs")
        }
        return (payload, credit)
    }

    private func recordSimulated(reference: String, productID: String) throws -> TopUpResult {
        guard let credit = try catalogue.credit(for: productID) else {
            throw RefusedTransaction(transactionID: reference, reason: "\(productID) is not one of the app's packs")
        }
        let draft = EntryDraft(
            id: EntryDraft.topUpID(store: store.name, reference: reference), kind: .topup, amount: credit,
            text: SimulatedStore.entryText, reference: reference, product: productID)
        switch try ledger.append(draft) {
        case .appended(let entry): return .credited(entry)
        case .alreadyRecorded(let entry): return .alreadyCredited(entry)
        }
    }
}
