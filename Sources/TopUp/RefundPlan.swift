import LedgerEntries
import Payments

/// What a store transaction's refund state asks of the ledger: the refund steps (``RefundStep``) still to write so
/// that the ledger says what the store says. A pure value: ``TopUpFlow`` and `credit reconcile --fix` write what it
/// says, under the same ids, so neither ever writes a step twice.
///
/// Every step is keyed by what the store did, so the plan is a function of the store's history alone: each reversal
/// held (on any device merged here) of a refund that is not the store's refund now is given back, once; the store's
/// refund now, if any, is taken back, once. Two devices that saw different moments of one transaction write either
/// the same entries or entries that sum, together, to what the store says.
public struct RefundPlan: Sendable, Equatable {
    /// A step to write and its amount (negative for a reversal).
    public struct Step: Sendable, Equatable {
        public var step: RefundStep
        public var amount: MicroCredits
    }

    /// What the ledger takes back now: the reversals held that nothing gives back.
    public var takenNow: MicroCredits
    /// Whether the state given is older than one the ledger already holds (a feed or list replayed from further
    /// back): it then changes nothing.
    public var isStale: Bool
    /// The steps to write, in order (what is given back first): none when the ledger agrees with the store.
    public var steps: [Step]

    /// The plan for the top-up `topUp` when the store, in a transaction it signed at `signedDate`, says `refund`
    /// (nil: not refunded); `held` are the refund steps the ledger holds for its transaction
    /// (`Ledger.refundSteps(reference:)`).
    ///
    /// The state is stale, and nothing is written, when it was signed before the newest receipt of a step held,
    /// when its refund is older than a refund already taken back, or when its refund was already given back (the
    /// store reversed it after).
    public init(store: String, topUp: LedgerEntry, refund: StoreRefund?, signedDate: Int64?, held: [LedgerEntry]) {
        let history = HeldRefundSteps(store: store, topUpID: topUp.id, held: held)
        takenNow = history.outstanding.reduce(MicroCredits.zero) {
            MicroCredits($0.rawValue - $1.entry.amount.rawValue)
        }
        let current = refund?.event
        isStale = history.isNewer(than: signedDate, event: current)
        guard !isStale else {
            steps = []
            return
        }
        // Every reversal the store's state now does not bear out is given back: its own amount, once.
        steps = history.outstanding.filter { current == nil || $0.event != current }.compactMap { held in
            held.step.reinstatement.map { Step(step: $0, amount: MicroCredits(-held.entry.amount.rawValue)) }
        }
        if let refund, let current, !history.reversals.contains(where: { $0.event == current }) {
            let share = RefundStep.share(of: topUp.amount, milliPercent: refund.milliPercent)
            steps.append(
                Step(
                    step: RefundStep(store: store, reference: topUp.reference ?? "", reversalOf: current),
                    amount: MicroCredits(-share.rawValue)))
        }
    }
}
