import CreditLedger
import DurableFiles
import Payments

extension TopUpFlow {
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
    /// unfinished. Every step is idempotent, so a collect interrupted anywhere can simply run again. A store with
    /// nothing signed (the simulated one) has nothing to collect.
    public func collect(updatesAfter cursor: String? = nil) async throws -> CollectReport {
        var report = CollectReport(cursor: cursor)
        let updates = try await store.updates(after: cursor)
        for signed in updates.signedTransactions {
            try await process(update: signed, into: &report)
        }
        report.cursor = updates.cursor
        for signed in try await store.unfinished() {
            do {
                let (transaction, _) = try check(signed)
                if transaction.revocationDate != nil {
                    try await process(update: signed, into: &report)
                    continue
                }
                report.add(try await deliver(signed))
                report.finished += 1
            } catch let refused as RefusedTransaction {
                report.refused.append(refused)
            }
        }
        return report
    }

    /// One transaction from the updates feed: a refund takes the credit back once (if it was ever given); anything
    /// else is delivered like a purchase.
    private func process(update signed: SignedTransaction, into report: inout CollectReport) async throws {
        do {
            let (transaction, credit) = try check(signed)
            guard transaction.revocationDate != nil else {
                report.add(try await deliver(signed))
                try reinstateIfReversed(transaction, credit: credit, into: &report)
                report.finished += 1
                return
            }
            try takeBack(transaction, credit: credit, into: &report)
            // A refunded purchase is finished either way: there is nothing left to deliver.
            try await store.finish(transactionID: transaction.transactionID)
        } catch let refused as RefusedTransaction {
            report.refused.append(refused)
        }
    }

    /// A refund the store reversed: the credit taken back is given back, once.
    private func reinstateIfReversed(
        _ transaction: VerifiedTransaction, credit: MicroCredits, into report: inout CollectReport
    ) throws {
        let reversalID = EntryDraft.reversalID(store: store.name, reference: transaction.transactionID)
        guard ledger.entry(id: reversalID) != nil else { return }
        let draft = EntryDraft(
            id: "reinstated-\(store.name)-\(transaction.transactionID)", kind: .topup,
            quantity: Int64(transaction.quantity), amount: credit, refersTo: reversalID,
            text: "The store reversed its refund: credit given back", reference: transaction.transactionID,
            product: transaction.productID, receipt: transaction.signed.jwsRepresentation)
        if case .appended(let entry) = try ledger.append(draft) { report.credited.append(entry) }
    }

    /// A refund: the top-up, if it was ever credited, is reversed once.
    private func takeBack(_ transaction: VerifiedTransaction, credit: MicroCredits, into report: inout CollectReport)
        throws
    {
        let topUpID = EntryDraft.topUpID(store: store.name, reference: transaction.transactionID)
        guard ledger.entry(id: topUpID) != nil else { return }
        let draft = EntryDraft(
            id: EntryDraft.reversalID(store: store.name, reference: transaction.transactionID), kind: .reversal,
            quantity: Int64(transaction.quantity), amount: try credit.negated(), refersTo: topUpID,
            reason: transaction.revocationReason.map { "revocationReason \($0)" },
            text: "Top-up refunded by the store", reference: transaction.transactionID,
            product: transaction.productID, receipt: transaction.signed.jwsRepresentation)
        if case .appended(let entry) = try ledger.append(draft) { report.reversed.append(entry) }
        try CrashPoints.hit("refund.after-record")
    }
}

extension TopUpFlow.CollectReport {
    /// Lists a delivery as credited now or before.
    mutating func add(_ result: TopUpResult) {
        switch result {
        case .credited(let entry): credited.append(entry)
        case .alreadyCredited(let entry): alreadyCredited.append(entry)
        default: break
        }
    }
}
