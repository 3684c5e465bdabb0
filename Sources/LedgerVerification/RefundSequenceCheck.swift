import LedgerEntries

/// `credit verify`'s check that each store transaction's top-up and refund steps (``RefundStep``) are a history that
/// can have happened: no step without the top-up it follows; each reversal taking back no more than was bought (and,
/// named by its refund event, exactly that refund's share); never two reversals of one refund event; each
/// reinstatement giving back a reversal that is there, exactly what it took; never more taken back at once than
/// bought. Steps numbered by ledgers written before events named them must also run 1, 2, 3… with none missing
/// (never two reversals or two re-credits in a row).
///
/// The verifier notes every entry that counts (the first with its id, across every device's file); the check runs
/// once all are noted.
struct RefundSequenceCheck {
    private struct Noted {
        var step: RefundStep
        var entry: LedgerEntry
        var file: String
        var line: Int
    }

    /// Top-ups that can have refund steps (the first credit of a store transaction), by id.
    private var topUps: [String: LedgerEntry] = [:]
    /// Steps by the id of the top-up they follow.
    private var steps: [String: [Noted]] = [:]

    /// Notes an entry that counts; only top-ups and refund steps are kept.
    mutating func note(_ entry: LedgerEntry, file: String, line: Int) {
        guard entry.kind == .topup || entry.kind == .reversal else { return }
        if let step = RefundStep(entry: entry) {
            steps[step.topUpID, default: []].append(Noted(step: step, entry: entry, file: file, line: line))
        } else if entry.kind == .topup, entry.refersTo == nil {
            topUps[entry.id] = entry
        }
    }

    /// What does not hold, one problem per transaction at the first step that cannot have happened.
    func problems() -> [VerificationProblem] {
        steps.keys.sorted().compactMap { topUpID in problem(topUpID: topUpID, steps: steps[topUpID]!) }
    }

    private func problem(topUpID: String, steps: [Noted]) -> VerificationProblem? {
        let reference = steps[0].step.reference
        guard let topUp = topUps[topUpID] else {
            return wrong(
                steps[0],
                "\(steps[0].entry.id) is a refund step of store transaction \(reference), which no top-up "
                    + "(\(topUpID)) here credits: nothing bought can be taken back")
        }
        if let numbered = numberedProblem(steps.filter { $0.step.number != nil }) { return numbered }
        // Reversals first, each by its id: a reinstatement is judged against the reversal it names.
        var reversals: [String: Noted] = [:]
        var byEvent: [RefundEvent: Noted] = [:]
        for noted in steps where noted.step.isReversal {
            if let problem = reversalProblem(noted, topUp: topUp, byEvent: &byEvent) { return problem }
            reversals[noted.entry.id] = noted
        }
        var outstanding = reversals
        for noted in steps where !noted.step.isReversal {
            if let problem = reinstatementProblem(noted, reversals: reversals) { return problem }
            outstanding[noted.step.reversal?.id ?? ""] = nil
        }
        let taken = outstanding.values.reduce(Int64(0)) { $0 &- $1.entry.amount.rawValue }
        guard taken <= topUp.amount.rawValue else {
            let last = outstanding.values.max { ($0.file, $0.line) < ($1.file, $1.line) }!
            return wrong(
                last,
                "store transaction \(reference): \(outstanding.count) reversals that nothing gives back take "
                    + "\(MicroCredits(taken).formatted) back at once, and it bought \(topUp.amount.formatted)")
        }
        return nil
    }

    /// A reversal of the wrong kind, taking more than was bought or other than its event's share, or a second
    /// reversal of one refund event.
    private func reversalProblem(_ noted: Noted, topUp: LedgerEntry, byEvent: inout [RefundEvent: Noted])
        -> VerificationProblem?
    {
        let entry = noted.entry
        let reference = noted.step.reference
        if let problem = kindProblem(noted) { return problem }
        let amount = entry.amount.rawValue
        guard amount <= 0, -amount <= topUp.amount.rawValue else {
            return wrong(
                noted,
                "\(entry.id) takes back \(MicroCredits(-amount).formatted) of store transaction \(reference), "
                    + "which bought \(topUp.amount.formatted): more than was bought")
        }
        if let event = noted.step.event {
            let share = RefundStep.share(of: topUp.amount, milliPercent: event.milliPercent)
            guard -amount == share.rawValue else {
                return wrong(
                    noted,
                    "\(entry.id) takes back \(MicroCredits(-amount).formatted) of store transaction \(reference), "
                        + "and the refund its id names takes \(share.formatted)")
            }
        }
        guard let event = noted.step.event ?? RefundReceipt(entry.receipt)?.event else { return nil }
        if let other = byEvent[event] {
            return wrong(
                noted,
                "\(entry.id) and \(other.entry.id) both take back the store's refund of transaction \(reference) "
                    + "made at \(event.date): two reversals of one refund cannot happen")
        }
        byEvent[event] = noted
        return nil
    }

    /// A reinstatement of the wrong kind, of a reversal that is not here, or giving back other than it took.
    private func reinstatementProblem(_ noted: Noted, reversals: [String: Noted]) -> VerificationProblem? {
        let entry = noted.entry
        let reference = noted.step.reference
        if let problem = kindProblem(noted) { return problem }
        let reversalID = noted.step.reversal?.id ?? ""
        guard let reversal = reversals[reversalID] else {
            return wrong(
                noted,
                "\(entry.id) gives back reversal \(reversalID) of store transaction \(reference), which is not "
                    + "here: a reinstatement without its reversal cannot happen")
        }
        guard entry.amount.rawValue == -reversal.entry.amount.rawValue, entry.refersTo == reversalID else {
            return wrong(
                noted,
                "\(entry.id) gives back \(entry.amount.formatted) of store transaction \(reference) "
                    + "(referring to \(entry.refersTo ?? "nothing")), and reversal \(reversalID) took "
                    + "\(MicroCredits(-reversal.entry.amount.rawValue).formatted)")
        }
        return nil
    }

    /// A step written as the wrong kind of entry.
    private func kindProblem(_ noted: Noted) -> VerificationProblem? {
        guard noted.entry.kind != noted.step.kind else { return nil }
        return wrong(
            noted,
            "\(noted.entry.id) is a refund step of store transaction \(noted.step.reference), which must be a "
                + "\(noted.step.isReversal ? "reversal" : "re-credit (a top-up)"), not a \(noted.entry.kind.rawValue)")
    }

    /// Numbered steps (written before events named steps) that do not run 1, 2, 3… with none missing.
    private func numberedProblem(_ numbered: [Noted]) -> VerificationProblem? {
        let ordered = numbered.sorted { ($0.step.number ?? 0) < ($1.step.number ?? 0) }
        for (index, noted) in ordered.enumerated() {
            let number = noted.step.number ?? 0
            guard number != index + 1 else { continue }
            let missing = index + 1
            let kind = missing % 2 == 1 ? "reversal" : "re-credit"
            let twice = missing % 2 == 1 ? "two re-credits" : "two reversals"
            return wrong(
                noted,
                "store transaction \(noted.step.reference): refund step \(number) (\(noted.entry.id)) follows step "
                    + "\(index) with the \(kind) of step \(missing) missing: \(twice) in a row cannot happen")
        }
        return nil
    }

    private func wrong(_ noted: Noted, _ detail: String) -> VerificationProblem {
        VerificationProblem(kind: .refundSequence, file: noted.file, line: noted.line, detail: detail)
    }
}
