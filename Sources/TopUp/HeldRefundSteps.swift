import LedgerEntries

/// The refund steps a ledger holds for one top-up, read: each reversal with the refund it took back (named by its
/// id, or for a numbered step by its receipt), which of them are given back, and the newest receipt's date.
struct HeldRefundSteps {
    struct Reversal {
        var step: RefundStep
        var entry: LedgerEntry
        /// The store's refund it took back; nil for a numbered step whose receipt cannot be read.
        var event: RefundEvent?
        var isGivenBack: Bool
    }

    /// Every reversal held, oldest refund first.
    var reversals: [Reversal] = []
    /// The newest `signedDate` among the held steps' receipts.
    var newestSigned: Int64?

    init(store: String, topUpID: String, held: [LedgerEntry]) {
        var givenBack: Set<String> = []
        var found: [Reversal] = []
        for entry in held {
            guard let step = RefundStep(entry: entry), step.store == store, step.topUpID == topUpID,
                entry.kind == step.kind
            else { continue }
            let receipt = RefundReceipt(entry.receipt)
            if let signed = receipt?.signedDate { newestSigned = max(newestSigned ?? signed, signed) }
            if let reversal = step.reversal {
                givenBack.insert(reversal.id)
            } else {
                found.append(
                    Reversal(step: step, entry: entry, event: step.event ?? receipt?.event, isGivenBack: false))
            }
        }
        reversals = found.map { reversal in
            var reversal = reversal
            reversal.isGivenBack = givenBack.contains(reversal.step.id)
            return reversal
        }.sorted { ($0.event?.date ?? .min, $0.step.id) < ($1.event?.date ?? .min, $1.step.id) }
    }

    /// The reversals nothing gives back.
    var outstanding: [Reversal] { reversals.filter { !$0.isGivenBack } }

    /// Whether what is held is newer than a state signed at `signedDate` showing refund `event` (nil: none).
    func isNewer(than signedDate: Int64?, event: RefundEvent?) -> Bool {
        if let signedDate, let newestSigned, signedDate < newestSigned { return true }
        guard let event else { return false }
        // The store's changes are in the order of their refunds' dates: a later refund held means this one is over.
        return reversals.contains { held in
            guard let heldEvent = held.event else { return false }
            return heldEvent.date > event.date || (heldEvent == event && held.isGivenBack)
        }
    }
}
