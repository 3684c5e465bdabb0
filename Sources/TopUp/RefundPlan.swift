import CreditLedger
import Payments

/// What a store transaction's refund state asks of the ledger: the refund steps (``RefundStep``) still to write so
/// that the ledger says what the store says, worked out from the steps the ledger already holds for it (on every
/// device merged here) and the store's state now. A pure value: ``TopUpFlow`` and `credit reconcile --fix` write
/// what it says, under the same ids, so neither ever writes a step twice.
public struct RefundPlan: Sendable, Equatable {
    /// A step to write and its amount (negative for a reversal).
    public struct Step: Sendable, Equatable {
        public var step: RefundStep
        public var amount: MicroCredits
    }

    /// The steps the ledger holds, 1 to `held` (the first missing one ends them).
    public var held: Int
    /// What the ledger has taken back now (0 after a re-credit or before any refund).
    public var takenNow: MicroCredits
    /// The steps to write, in order: none when the ledger agrees with the store.
    public var steps: [Step]

    /// The plan for the top-up `topUp` when the store says `refund` (nil: not refunded).
    ///
    /// - A refund the ledger has not taken: a reversal of the refunded share.
    /// - A refund taken back: nothing, unless the store's share changed (then a re-credit and a new reversal).
    /// - No refund (a reversed one), after a reversal: a re-credit of what it took.
    public init(
        store: String, topUp: LedgerEntry, refund: StoreRefund?, lookup: (String) -> LedgerEntry?
    ) {
        let reference = topUp.reference ?? ""
        var held = 0
        var lastAmount = MicroCredits.zero
        // Probing ids: a transaction has a few steps, and each id is derived, so this is a handful of lookups.
        while held < RefundPlan.maximumSteps,
            let entry = lookup(RefundStep(store: store, reference: reference, number: held + 1).id)
        {
            held += 1
            lastAmount = entry.amount
        }
        self.held = held
        let taken = held % 2 == 1 ? MicroCredits(-lastAmount.rawValue) : .zero
        takenNow = taken
        func step(_ offset: Int, _ amount: MicroCredits) -> Step {
            Step(step: RefundStep(store: store, reference: reference, number: held + offset), amount: amount)
        }
        switch (refund, held % 2 == 1) {
        case (let refund?, false):
            let share = RefundStep.share(of: topUp.amount, milliPercent: refund.milliPercent)
            steps = [step(1, MicroCredits(-share.rawValue))]
        case (let refund?, true):
            let share = RefundStep.share(of: topUp.amount, milliPercent: refund.milliPercent)
            steps = share == taken ? [] : [step(1, taken), step(2, MicroCredits(-share.rawValue))]
        case (nil, true):
            steps = [step(1, taken)]
        case (nil, false):
            steps = []
        }
    }

    /// More steps than any transaction has: a bound on the probing, never reached in practice.
    static let maximumSteps = 10_000
}

/// A store's refund of a transaction, as its signed transaction says: how much of it, in Apple's milliunits.
public struct StoreRefund: Sendable, Equatable {
    /// 100000 for a full refund; `revocationPercentage` for a prorated one.
    public var milliPercent: Int
    /// `revocationReason`, if any.
    public var reason: Int?

    public init(milliPercent: Int, reason: Int? = nil) {
        self.milliPercent = milliPercent
        self.reason = reason
    }

    /// The refund `transaction` carries (nil when it is not refunded), or why it cannot be read.
    public init?(_ transaction: VerifiedTransaction) throws(RefusedTransaction) {
        guard transaction.revocationDate != nil else { return nil }
        reason = transaction.revocationReason
        switch transaction.revocationType {
        case .refundProrated?:
            guard let percentage = transaction.payload.revocationPercentage, (0...100_000).contains(percentage) else {
                throw RefusedTransaction(
                    transactionID: transaction.transactionID,
                    reason: "it is a prorated refund without a revocationPercentage from 0 to 100000")
            }
            milliPercent = percentage
        default:
            milliPercent = 100_000
        }
    }

    /// Whether it is the whole purchase.
    public var isFull: Bool { milliPercent >= 100_000 }

    /// The share as people say it: `50%`, `33.333%`.
    public var percentText: String {
        let whole = milliPercent / 1000
        let fraction = milliPercent % 1000
        guard fraction != 0 else { return "\(whole)%" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)%"
    }
}
