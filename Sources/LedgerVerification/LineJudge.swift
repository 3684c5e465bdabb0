import LedgerEntries

/// Judges a damaged ledger file line by line, to say what is wrong where: a line that is not an entry, an entry
/// without a MAC, one whose MAC does not verify (changed in place, or inserted), one of another device, a sequence
/// seen twice (duplicated or forked), out of order (reordered), or after a gap (deleted), a `prev` that does not
/// link. ``LedgerVerifier`` uses it for a file that is not a clean chain; a clean one needs no judging.
///
/// The judge walks the chain as it goes: ``end`` is the last sequence and MAC that took their place in it, for the
/// head check.
package struct LineJudge {
    private let path: String
    private let device: String
    /// The file's lines, each with whether its MAC verifies.
    private let lines: [LedgerVerifier.Line]
    /// The sequences of this device's lines that verify.
    private let present: Set<Int64>
    /// The MACs of the lines that verify.
    private let validMACs: Set<String>
    /// Each sequence judged so far: its MAC and line.
    private var seen: [Int64: (mac: String?, line: Int)] = [:]
    private var reportedReorder = false
    /// Set when the line before was damaged in place: the link from it to the next line cannot be judged.
    private var linkUnknown = false
    /// The sequence the next entry should have.
    private var expected: Int64 = 1
    private var lastMAC = String(repeating: "0", count: 64)
    /// No entry of the file carries a MAC: a ledger made before signing, whose entries still make its balance (each
    /// said to be unsigned), as `credit balance` counts them.
    private let madeBeforeSigning: Bool
    /// The line without a final newline, reported as truncated elsewhere, so not judged here.
    private let tornAt: Int?

    /// What judging one line found.
    package struct Verdict {
        package var problems: [VerificationProblem] = []
        /// The line is an entry that takes its place in the chain (to be checked across files).
        var takesItsPlace = false
    }

    /// The end of the chain judged so far.
    var end: LedgerVerifier.ChainEnd { LedgerVerifier.ChainEnd(lastSequence: expected - 1, lastMAC: lastMAC) }

    /// A judge of `file`, `device`'s, whose lines' MACs verify as `macValid` says.
    package init(file: LedgerVerifier.ReadFile, device: String, macValid: [Bool]) {
        path = file.path
        self.device = device
        tornAt = file.tornAt
        lines = zip(file.lines, macValid).map { line, valid in
            var line = line
            line.macValid = valid
            return line
        }
        present = Set(lines.compactMap { $0.macValid && $0.entry?.device == device ? $0.entry?.sequence : nil })
        validMACs = Set(lines.compactMap { $0.macValid ? $0.entry?.mac : nil })
        madeBeforeSigning = lines.allSatisfy { $0.entry.map { $0.mac == nil } ?? true }
    }

    /// Judges line `index`; lines are judged in order, each once.
    package mutating func judge(_ index: Int) -> Verdict {
        var verdict = Verdict()
        let line = lines[index]
        guard let entry = line.entry else {
            if line.number != tornAt { judgeUnreadable(line, at: index, into: &verdict) }
            return verdict
        }
        func problem(_ kind: VerificationProblem.Kind, _ detail: String) {
            verdict.problems.append(VerificationProblem(kind: kind, file: path, line: line.number, detail: detail))
        }
        if entry.mac == nil {
            problem(.unsigned, "the entry carries no MAC (run `credit upgrade` for a ledger made before signing)")
            verdict.takesItsPlace = madeBeforeSigning && entry.device == device
            return verdict
        }
        if !line.macValid {
            judgeUnverified(entry, at: index, into: &verdict)
            return verdict
        }
        guard entry.device == device else {
            problem(.inserted, "entry \(entry.id) belongs to device \(entry.device), not \(device)")
            return verdict
        }
        if let earlier = seen[entry.sequence] {
            if earlier.mac == entry.mac {
                problem(.duplicated, "#\(entry.sequence) already appears on line \(earlier.line)")
            } else {
                problem(.forked, "a second, different entry #\(entry.sequence) (first on line \(earlier.line))")
            }
            return verdict
        }
        seen[entry.sequence] = (entry.mac, line.number)
        judgeSequence(entry, line: line.number, into: &verdict)
        linkUnknown = false
        verdict.takesItsPlace = true
        return verdict
    }

    /// The next line after `index` that verifies, to see whether a damaged line still sits in its place in the chain.
    private func next(after index: Int) -> LedgerEntry? {
        lines[(index + 1)...].first { $0.macValid && $0.entry?.device == device }?.entry
    }

    /// A line that is not an entry at all.
    private mutating func judgeUnreadable(_ line: LedgerVerifier.Line, at index: Int, into verdict: inout Verdict) {
        verdict.problems.append(
            VerificationProblem(
                kind: .unreadable, file: path, line: line.number,
                detail: "the line is not a ledger entry (\(line.parseError ?? "?")): changed or damaged"))
        // Damaged where an entry should be: it takes that place, so no deletion is reported for it.
        if next(after: index)?.sequence == expected + 1 {
            expected += 1
            linkUnknown = true
        }
    }

    /// An entry whose MAC does not verify: changed in place if it still links to the entry before it or the one
    /// after it and is not an altered copy of another line (whose MAC it would carry); inserted otherwise.
    private mutating func judgeUnverified(_ entry: LedgerEntry, at index: Int, into verdict: inout Verdict) {
        let number = lines[index].number
        func problem(_ kind: VerificationProblem.Kind, _ detail: String) {
            verdict.problems.append(VerificationProblem(kind: kind, file: path, line: number, detail: detail))
        }
        let inPlace =
            entry.prev == lastMAC || next(after: index).map { $0.prev != nil && $0.prev == entry.mac } == true
        if entry.device != device {
            problem(
                .inserted,
                "entry \(entry.id) belongs to device \(entry.device) and its MAC does not verify with this ledger's key: spliced in from another ledger"
            )
        } else if !inPlace || entry.mac.map(validMACs.contains) == true {
            problem(
                .inserted, "entry \(entry.id) (#\(entry.sequence)) does not verify with this ledger's key: inserted")
        } else {
            problem(
                .changed,
                "entry \(entry.id) (#\(expected)) was changed after it was written: its MAC does not match its bytes")
            // It still takes its place in the chain, so the next line is judged on its own.
            expected += 1
            lastMAC = entry.mac ?? lastMAC
            linkUnknown = true
        }
    }

    /// A verifying entry of this device, seen for the first time: where it comes in the chain.
    private mutating func judgeSequence(_ entry: LedgerEntry, line number: Int, into verdict: inout Verdict) {
        func problem(_ kind: VerificationProblem.Kind, _ detail: String) {
            verdict.problems.append(VerificationProblem(kind: kind, file: path, line: number, detail: detail))
        }
        if entry.sequence < expected {
            if !reportedReorder {
                problem(.reordered, "#\(entry.sequence) comes after #\(expected - 1): entries were moved")
                reportedReorder = true
            }
        } else if entry.sequence > expected {
            let missing = (expected..<entry.sequence).filter { !present.contains($0) }
            if missing.count < Int(entry.sequence - expected) && !reportedReorder {
                problem(.reordered, "#\(entry.sequence) comes where #\(expected) should be: entries were moved")
                reportedReorder = true
            }
            if !missing.isEmpty {
                let range = missing.count == 1 ? "#\(missing[0])" : "#\(missing.first!)-#\(missing.last!)"
                problem(
                    .deleted,
                    "\(range) missing before this line: \(missing.count) entr\(missing.count == 1 ? "y" : "ies") deleted"
                )
            }
            expected = entry.sequence + 1
            lastMAC = entry.mac!
        } else {
            if entry.prev != lastMAC && !reportedReorder && !linkUnknown {
                problem(
                    .changed,
                    "the chain is broken before #\(entry.sequence): its prev does not match the entry before it")
            }
            expected = entry.sequence + 1
            lastMAC = entry.mac!
        }
    }
}
