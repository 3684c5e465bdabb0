/// `credit verify`'s check that each store transaction's top-up and refund steps (``RefundStep``) are a sequence that
/// can have happened: credit, reverse, re-credit, reverse, … with no step missing (never two reversals or two
/// re-credits in a row), each reversal taking back no more than was bought, each re-credit giving back what the
/// reversal before it took, and no step without the top-up it follows.
///
/// The verifier notes every entry that counts (the first with its id, across every device's file); the check runs
/// once all are noted.
struct RefundSequenceCheck {
    private struct Noted {
        var entry: LedgerEntry
        var file: String
        var line: Int
    }

    /// Top-ups that can have refund steps (the first credit of a store transaction), by id.
    private var topUps: [String: Noted] = [:]
    /// Steps by the id of the top-up they follow.
    private var steps: [String: [(RefundStep, Noted)]] = [:]

    /// Notes an entry that counts; only top-ups and refund steps are kept.
    mutating func note(_ entry: LedgerEntry, file: String, line: Int) {
        guard entry.kind == .topup || entry.kind == .reversal else { return }
        if let step = RefundStep(entry: entry) {
            steps[step.topUpID, default: []].append((step, Noted(entry: entry, file: file, line: line)))
        } else if entry.kind == .topup, entry.refersTo == nil {
            topUps[entry.id] = Noted(entry: entry, file: file, line: line)
        }
    }

    /// What does not hold, one problem per transaction at the first step that cannot have happened.
    func problems() -> [VerificationProblem] {
        steps.keys.sorted().compactMap { topUpID in
            let ordered = steps[topUpID]!.sorted { $0.0.number < $1.0.number }
            return problem(topUpID: topUpID, steps: ordered)
        }
    }

    private func problem(topUpID: String, steps: [(RefundStep, Noted)]) -> VerificationProblem? {
        func wrong(_ noted: Noted, _ detail: String) -> VerificationProblem {
            VerificationProblem(kind: .refundSequence, file: noted.file, line: noted.line, detail: detail)
        }
        let reference = steps[0].0.reference
        guard let topUp = topUps[topUpID] else {
            return wrong(
                steps[0].1,
                "\(steps[0].1.entry.id) is a refund step of store transaction \(reference), which no top-up "
                    + "(\(topUpID)) here credits: nothing bought can be taken back")
        }
        let bought = topUp.entry.amount.rawValue
        var taken: Int64 = 0
        var lastReversal: Int64 = 0
        for (index, (step, noted)) in steps.enumerated() {
            let entry = noted.entry
            guard step.number == index + 1 else {
                let missing = index + 1
                let kind = missing % 2 == 1 ? "reversal" : "re-credit"
                let twice = missing % 2 == 1 ? "two re-credits" : "two reversals"
                return wrong(
                    noted,
                    "store transaction \(reference): refund step \(step.number) (\(entry.id)) follows step "
                        + "\(index) with the \(kind) of step \(missing) missing: \(twice) in a row cannot happen")
            }
            guard entry.kind == step.kind else {
                return wrong(
                    noted,
                    "\(entry.id) is step \(step.number) of store transaction \(reference), which must be a "
                        + "\(step.isReversal ? "reversal" : "re-credit (a top-up)"), not a \(entry.kind.rawValue)")
            }
            let amount = entry.amount.rawValue
            if step.isReversal {
                guard amount <= 0, -amount <= bought else {
                    return wrong(
                        noted,
                        "\(entry.id) takes back \(MicroCredits(-amount).formatted) of store transaction "
                            + "\(reference), which bought \(topUp.entry.amount.formatted): more than was bought")
                }
                lastReversal = -amount
                taken += -amount
            } else {
                guard amount == lastReversal else {
                    return wrong(
                        noted,
                        "\(entry.id) gives back \(entry.amount.formatted) of store transaction \(reference), "
                            + "and the reversal before it took \(MicroCredits(lastReversal).formatted)")
                }
                taken -= amount
            }
            guard taken >= 0, taken <= bought else {
                return wrong(
                    noted,
                    "after \(entry.id), \(MicroCredits(taken).formatted) of store transaction \(reference) "
                        + "is taken back, and it bought \(topUp.entry.amount.formatted)")
            }
        }
        return nil
    }
}
