import LedgerEntries
import Payments

/// The ledger set beside the store's own record of purchases (the App Store Server API's transaction history): what
/// `credit reconcile` reports and, with `--fix`, records. It finds a purchase paid and never credited (a backup
/// restored over the data directory), a credit with no store transaction behind it, a refund (full or partial) the
/// ledger has not taken back, and a reversal the store does not bear out. What it records has the ids the top-up flow
/// would have used (``RefundStep``, the top-up's id), so nothing is ever counted twice.
public struct StoreReconciliation {
    /// What a finding is.
    public enum Kind: String, Sendable, Equatable {
        case paidNotCredited = "paid-not-credited"
        case creditedWithoutStoreTransaction = "credited-without-store-transaction"
        case refundedNotReversed = "refunded-not-reversed"
        case refundShareDiffers = "refund-share-differs"
        case reversedNotRefunded = "reversed-not-refunded"
        case unverifiable
        /// Another account's purchase (its `appAccountToken` is not this account's): listed apart, never this
        /// account's to credit.
        case anotherAccount = "another-account"
        /// A purchase made outside the app (no account token) that this ledger has not credited: whichever account
        /// collects it first credits it (`credit collect`), so it is listed apart, and `--fix` does not credit it.
        case outsideTheApp = "outside-the-app"

        /// Whether it is listed apart: not a difference between the store and this account's ledger.
        public var isApart: Bool { self == .anotherAccount || self == .outsideTheApp }
    }

    /// One disagreement between the store and the ledger.
    public struct Finding: Sendable, Equatable {
        public var transactionID: String
        public var kind: Kind
        /// What the store says, in words (`paid £5.00`, `refunded 50%`).
        public var store: String
        /// What the ledger says, in words.
        public var ledger: String
        /// Whether `--fix` can record what the ledger lacks.
        public var fixable: Bool
        /// The entries `--fix` wrote for it.
        public var fixedBy: [LedgerEntry] = []
        /// Why `--fix` could not fix it, when it tried.
        public var notFixed: String?
    }

    /// A flow whose verifier checks the Server API's signed transactions (the store's pinned roots).
    public let flow: TopUpFlow

    public init(flow: TopUpFlow) { self.flow = flow }

    /// The findings for the store's `transactions`; with `wholeHistory`, also every top-up of this store in the
    /// ledger that none of them backs.
    public func compare(_ transactions: [SignedTransaction], wholeHistory: Bool) -> [Finding] {
        var findings: [Finding] = []
        var seen: Set<String> = []
        for signed in transactions {
            let transaction: VerifiedTransaction
            let credit: MicroCredits
            let refund: StoreRefund?
            do {
                (transaction, credit) = try flow.check(signed)
                refund = try StoreRefund(transaction)
            } catch let refused as RefusedTransaction where refused.isAnotherAccounts {
                let id = refused.transactionID ?? "(id unreadable)"
                guard seen.insert(id).inserted else { continue }
                findings.append(
                    Finding(
                        transactionID: id, kind: .anotherAccount, store: "bought by another account", ledger: "-",
                        fixable: false))
                continue
            } catch let refused as RefusedTransaction {
                findings.append(
                    Finding(
                        transactionID: refused.transactionID ?? "(id unreadable)", kind: .unverifiable,
                        store: "cannot be trusted", ledger: "-", fixable: false, notFixed: refused.reason))
                continue
            } catch {
                continue
            }
            guard seen.insert(transaction.transactionID).inserted else { continue }
            if let finding = finding(for: transaction, credit: credit, refund: refund) { findings.append(finding) }
        }
        if wholeHistory { findings += unbacked(by: seen) }
        return findings
    }

    /// What the store says about one transaction and what the ledger holds for it, if they differ.
    private func finding(for transaction: VerifiedTransaction, credit: MicroCredits, refund: StoreRefund?) -> Finding? {
        let id = transaction.transactionID
        let storeWords = Self.words(refund, paid: credit)
        guard let topUp = flow.ledger.entry(id: EntryDraft.topUpID(store: flow.store.name, reference: id)) else {
            // Refunded in full before it was ever credited: nothing is owed either way.
            if let refund, refund.isFull { return nil }
            if transaction.payload.appAccountToken?.isEmpty ?? true {
                return Finding(
                    transactionID: id, kind: .outsideTheApp, store: storeWords + ", outside the app",
                    ledger: "not credited here", fixable: false,
                    notFixed: "it carries no account token: `credit collect` credits it if no account has collected it")
            }
            return Finding(
                transactionID: id, kind: .paidNotCredited, store: storeWords, ledger: "not credited", fixable: true)
        }
        let plan = RefundPlan(
            store: flow.store.name, topUp: topUp, refund: refund, signedDate: transaction.payload.signedDate,
            held: flow.ledger.refundSteps(reference: id))
        guard !plan.steps.isEmpty else { return nil }
        let ledgerWords =
            plan.takenNow == .zero
            ? "credited \(topUp.amount.formatted)" : "credited, \(plan.takenNow.formatted) taken back"
        let kind: Kind
        switch refund {
        case .some where plan.takenNow == .zero: kind = .refundedNotReversed
        case .some: kind = .refundShareDiffers
        case nil: kind = .reversedNotRefunded
        }
        return Finding(transactionID: id, kind: kind, store: storeWords, ledger: ledgerWords, fixable: true)
    }

    /// The ledger's top-ups through this store that no store transaction in `backed` is behind.
    private func unbacked(by backed: Set<String>) -> [Finding] {
        let prefix = EntryDraft.topUpID(store: flow.store.name, reference: "")
        return flow.ledger.distinctEntries.filter {
            $0.kind == .topup && $0.refersTo == nil && $0.id.hasPrefix(prefix)
                && !backed.contains($0.reference ?? "")
        }.map {
            Finding(
                transactionID: $0.reference ?? "?", kind: .creditedWithoutStoreTransaction,
                store: "no such transaction", ledger: "credited \($0.amount.formatted)", fixable: false,
                notFixed: "the ledger never takes a credit away by itself: check where it came from")
        }
    }

    /// Records what the ledger lacks for each fixable finding, with the store's signed transaction as its receipt;
    /// returns the findings with what was written, or why not.
    public func fix(_ findings: [Finding], transactions: [SignedTransaction]) throws -> [Finding] {
        var byID: [String: (VerifiedTransaction, MicroCredits)] = [:]
        for signed in transactions {
            if let checked = try? flow.check(signed) { byID[checked.0.transactionID] = checked }
        }
        return try findings.map { finding in
            var finding = finding
            guard finding.fixable, let (transaction, credit) = byID[finding.transactionID] else { return finding }
            var report = TopUpFlow.CollectReport()
            if finding.kind == .paidNotCredited {
                if case .appended(let entry) = try flow.ledger.append(flow.topUpDraft(transaction, credit: credit)) {
                    report.credited.append(entry)
                }
            }
            try flow.applyRefundState(transaction, refund: try StoreRefund(transaction), into: &report)
            finding.fixedBy = report.credited + report.reversed
            if finding.fixedBy.isEmpty { finding.notFixed = "nothing could be recorded: the ledger changed meanwhile" }
            return finding
        }
    }

    /// The top-up the flow would have written for `transaction` (same id, same content).
    /// The store's side in words.
    static func words(_ refund: StoreRefund?, paid: MicroCredits) -> String {
        guard let refund else { return "paid \(paid.formatted)" }
        return refund.isFull ? "refunded in full" : "refunded \(refund.percentText)"
    }
}
