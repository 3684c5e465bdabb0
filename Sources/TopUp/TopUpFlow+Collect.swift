import DurableFiles
import LedgerEntries
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
        /// Purchases made outside the app (no account token) that were finished already: collected by some account
        /// (this one on another device, or another), so not credited here.
        public var collectedElsewhere: [String] = []
        /// Purchases of another account on the same store (their account token is not this account's): left for
        /// it, neither credited nor finished here, and no failure.
        public var otherAccounts: [String] = []

        /// Notes a refusal: another account's purchase apart, anything else as refused; each transaction once (the
        /// updates feed and the unfinished ones may both hold it).
        mutating func note(_ refused: RefusedTransaction) {
            if refused.isAnotherAccounts {
                let id = refused.transactionID ?? "?"
                if !otherAccounts.contains(id) { otherAccounts.append(id) }
            } else if refused.transactionID == nil
                || !self.refused.contains(where: { $0.transactionID == refused.transactionID })
            {
                self.refused.append(refused)
            }
        }
    }

    /// The ids of the transactions the store holds unfinished (those that verify as this app's).
    private func unfinishedIDs() async throws -> Set<String> {
        var ids: Set<String> = []
        for signed in try await store.unfinished() {
            if let (transaction, _) = try? check(signed) { ids.insert(transaction.transactionID) }
        }
        return ids
    }

    /// Collects what the store holds: first the updates feed since `cursor` (approved purchases credited, refunds
    /// taken back), then every unfinished transaction (verify, record idempotently, finish). Refused ones stay
    /// unfinished. Every step is idempotent, so a collect interrupted anywhere can simply run again. A store with
    /// nothing signed (the simulated one) has nothing to collect.
    public func collect(updatesAfter cursor: String? = nil) async throws -> CollectReport {
        var report = CollectReport(cursor: cursor)
        let updates = try await store.updates(after: cursor)
        // A purchase with no account token (made outside the app) is this account's only while nobody has
        // collected it: once finished, it is credited to whichever account collected it first.
        let waiting = updates.signedTransactions.isEmpty ? [] : try await unfinishedIDs()
        for signed in updates.signedTransactions {
            try await process(update: signed, waiting: waiting, into: &report)
        }
        report.cursor = updates.cursor
        for signed in try await store.unfinished() {
            do {
                let (transaction, _) = try check(signed)
                if transaction.revocationDate != nil {
                    try await process(update: signed, waiting: nil, into: &report)
                    continue
                }
                report.add(try await deliver(signed))
                // Refunded and reversed before it was ever finished: the credit taken back is given again.
                try applyRefundState(transaction, refund: nil, into: &report)
                report.finished += 1
            } catch let refused as RefusedTransaction {
                report.note(refused)
            }
        }
        return report
    }

    /// One transaction from the updates feed: its refund state is brought into the ledger (``RefundPlan``: a refund
    /// taken back, a reversed refund given again, each step once); anything not refunded is also delivered like a
    /// purchase.
    private func process(update signed: SignedTransaction, waiting: Set<String>?, into report: inout CollectReport)
        async throws
    {
        do {
            let (transaction, _) = try check(signed)
            let refund = try StoreRefund(transaction)
            guard refund != nil else {
                if let waiting, transaction.payload.appAccountToken?.isEmpty ?? true,
                    !waiting.contains(transaction.transactionID)
                {
                    // Not credited here if not held already; a credit held here is still brought up to date (a
                    // refund reversed gives it back).
                    if ledger.entry(id: EntryDraft.topUpID(store: store.name, reference: transaction.transactionID))
                        == nil
                    {
                        report.collectedElsewhere.append(transaction.transactionID)
                    }
                    try applyRefundState(transaction, refund: nil, into: &report)
                    return
                }
                report.add(try await deliver(signed))
                try applyRefundState(transaction, refund: nil, into: &report)
                report.finished += 1
                return
            }
            try applyRefundState(transaction, refund: refund, into: &report)
            // A refunded purchase is finished either way: there is nothing left to deliver (one finished already is
            // left alone).
            if waiting?.contains(transaction.transactionID) != false {
                try await store.finish(transactionID: transaction.transactionID)
            }
        } catch let refused as RefusedTransaction {
            // Another account's purchase is said by the pass over unfinished ones while it waits for that account;
            // a store whose updates are its whole history (StoreKit's) would otherwise name it at every collect.
            if refused.isAnotherAccounts && waiting != nil { return }
            report.note(refused)
        }
    }

    /// Writes the refund steps the ledger lacks for `transaction` (nothing when it was never credited, or when the
    /// state it shows is older than one held: ``RefundPlan``). A step another process wrote meanwhile is found
    /// already recorded: the plan is then made again from the ledger as it is now, so no step is written twice and
    /// none is skipped.
    func applyRefundState(_ transaction: VerifiedTransaction, refund: StoreRefund?, into report: inout CollectReport)
        throws
    {
        let topUpID = EntryDraft.topUpID(store: store.name, reference: transaction.transactionID)
        for round in 0..<4 {
            if round > 0 { try ledger.refresh() }
            guard let topUp = ledger.entry(id: topUpID) else { return }
            let plan = RefundPlan(
                store: store.name, topUp: topUp, refund: refund, signedDate: transaction.payload.signedDate,
                held: ledger.refundSteps(reference: transaction.transactionID))
            guard !plan.steps.isEmpty else { return }
            try CrashPoints.hit("refund.before-record")
            let drafts = plan.steps.map { draft(for: $0, transaction, refund: refund) }
            let outcomes = try ledger.appendBatch(drafts)
            try CrashPoints.hit("refund.after-record")
            var allNew = true
            for outcome in outcomes {
                guard case .appended(let entry) = outcome else {
                    allNew = false
                    continue
                }
                if entry.kind == .reversal { report.reversed.append(entry) } else { report.credited.append(entry) }
            }
            if allNew { return }
        }
    }

    /// The entry of one planned step, with the signed transaction that shows the store's state as its receipt.
    func draft(for planned: RefundPlan.Step, _ transaction: VerifiedTransaction, refund: StoreRefund?) -> EntryDraft {
        let step = planned.step
        let text: String
        if !step.isReversal {
            // Given back because the store reversed the refund, or replaced it with another (a changed share).
            text =
                refund == nil
                ? "The store reversed its refund: credit given back"
                : "The store changed its refund: the share taken before is given back"
        } else if let refund, !refund.isFull {
            text = "Top-up refunded in part by the store (\(refund.percentText))"
        } else {
            text = "Top-up refunded by the store"
        }
        return EntryDraft(
            id: step.id, kind: step.kind, quantity: Int64(transaction.quantity), amount: planned.amount,
            refersTo: step.refersTo,
            reason: step.isReversal ? refund?.reason.map { "revocationReason \($0)" } : nil, text: text,
            reference: transaction.transactionID, product: transaction.productID,
            receipt: transaction.signed.jwsRepresentation)
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
