import LedgerEntries

/// One run of ``LedgerVerifier/verify(read:heads:requireHeads:)`` over files already read: what it has found so far
/// (the report, the balance, the devices), and what it checks each entry against (every file's entries by id and by
/// place, the first top-up crediting each payment reference, each transaction's refund steps).
struct VerificationPass {
    let verifier: LedgerVerifier
    let files: [LedgerVerifier.ReadFile]
    private var report = VerificationReport()
    private var crossIndex = VerifierCrossIndex()
    private var balance = MicroCredits.zero
    private var devices: Set<String> = []
    /// The first top-up line crediting each payment reference (top-ups only: a few).
    private var credited: [String: (id: String, place: String)] = [:]
    private var refundSequences = RefundSequenceCheck()

    init(verifier: LedgerVerifier, files: [LedgerVerifier.ReadFile]) {
        self.verifier = verifier
        self.files = files
    }

    /// Verifies file `fileNumber`: its MACs, its chain (as a whole when it is a good file, else line by line), each
    /// entry in its place against every file, and its end against its device's signed head.
    mutating func verify(fileNumber: Int, head: (String) -> SignedHead?, requireHeads: Set<String>) throws {
        let file = files[fileNumber]
        let macValid = try LedgerVerifier.checkMACs(of: file, key: verifier.macKey)
        if let whole = LedgerVerifier.wholeFileProblem(file, macValid: macValid) {
            report.problems.append(whole)
            if whole.kind == .otherAccount { report.entriesChecked += file.lines.count }
            return
        }
        let device = LedgerVerifier.device(of: file)
        devices.insert(device)
        var problems: [VerificationProblem] = []
        if let tornAt = file.tornAt {
            problems.append(
                VerificationProblem(
                    kind: .truncated, file: file.path, line: tornAt,
                    detail: "the last line is incomplete (no newline): an interrupted write or a cut"))
        }
        let end: LedgerVerifier.ChainEnd
        // The lines and their ids' hashes read in place: no copy of a line, its entry or the file per line.
        let hashes = file.hashes.map { $0.count == file.lines.count ? $0 : [] } ?? []
        let cleanEnd = LedgerVerifier.cleanChain(of: file, device: device, macValid: macValid)
        if let last = cleanEnd {
            // A good file: nothing to judge line by line. Its ids and its places are checked at once, one on each
            // core, then each line's verdict is taken in order.
            try file.lines.withUnsafeBufferPointer { lines in
                try hashes.withUnsafeBufferPointer { hashes in
                    let scope = VerifierCrossIndex.Lines(files: files, number: fileNumber, lines: lines)
                    let verdicts = crossIndex.checkAll(scope, hashes: hashes, goodFileOf: device)
                    if verdicts.duplicates.isEmpty, verdicts.forks.isEmpty, let figures = file.figures,
                        figures.count == lines.count
                    {
                        try countFirsts(verdicts.first, figures: figures, of: fileNumber, lines: lines, into: &problems)
                        return
                    }
                    var cursor = (duplicate: 0, fork: 0)
                    for index in lines.indices {
                        try take(
                            verdicts.verdict(index, cursor: &cursor), index, of: fileNumber, lines: lines,
                            into: &problems)
                    }
                }
            }
            end = LedgerVerifier.ChainEnd(lastSequence: Int64(file.lines.count), lastMAC: last.hex)
        } else {
            var judge = LineJudge(file: file, device: device, macValid: macValid)
            try file.lines.withUnsafeBufferPointer { lines in
                try hashes.withUnsafeBufferPointer { hashes in
                    for index in lines.indices {
                        let verdict = judge.judge(index)
                        problems.append(contentsOf: verdict.problems)
                        guard verdict.takesItsPlace else { continue }
                        try crossCheck(index, of: fileNumber, lines: lines, hashes: hashes, into: &problems)
                    }
                }
            }
            end = judge.end
        }
        // Entries: a cut last line or an unreadable one is a problem, not an entry checked. (In a good file every
        // line is an entry.)
        report.entriesChecked +=
            cleanEnd != nil
            ? file.lines.count
            : file.lines.withUnsafeBufferPointer { lines in
                var count = 0
                for index in lines.indices { if case .some = lines[index].entry { count += 1 } }
                return count
            }
        // The head: truncation and rollback show only against it.
        let checked = LedgerVerifier.checkHead(
            head(device), required: requireHeads.contains(device), device: device, file: file, end: end,
            publicKey: verifier.headPublicKey)
        problems.append(contentsOf: checked.problems)
        if let note = checked.note { report.notes.append(note) }
        report.problems.append(contentsOf: problems)
    }

    /// The report, once every file is verified.
    mutating func finished() -> VerificationReport {
        report.problems.append(contentsOf: refundSequences.problems())
        report.devices = devices.sorted()
        report.balance = balance
        return report
    }

    /// An entry in its place in the chain, across files: the first with its id counts (and its receipt is checked);
    /// a copy with other content, or another entry at its (device, sequence), is a problem. `lines` are the file's,
    /// `hashes` their ids' hashes when the read made them (else empty).
    private mutating func crossCheck(
        _ index: Int, of fileNumber: Int, lines: UnsafeBufferPointer<LedgerVerifier.Line>,
        hashes: UnsafeBufferPointer<UInt64>, into problems: inout [VerificationProblem]
    ) throws {
        let hash = hashes.isEmpty ? lines[index].entry!.idHash : hashes[index]
        let scope = VerifierCrossIndex.Lines(files: files, number: fileNumber, lines: lines)
        try take(
            crossIndex.check(line: index, of: scope, hash: hash), index, of: fileNumber, lines: lines, into: &problems)
    }

    /// The verdicts of a file's lines when none is a duplicate or a fork: each line first with its id counts, a
    /// plain one summed from its figure (no entry read, no verdict made), a top-up or a reversal as
    /// ``take(_:_:of:lines:into:)`` takes it. The same sums, in the same order, as taking every verdict.
    private mutating func countFirsts(
        _ first: [Bool], figures: [LedgerVerifier.LineFigure], of fileNumber: Int,
        lines: UnsafeBufferPointer<LedgerVerifier.Line>, into problems: inout [VerificationProblem]
    ) throws {
        try first.withUnsafeBufferPointer { first in
            try figures.withUnsafeBufferPointer { figures in
                for index in first.indices where first[index] {
                    if figures[index].plain {
                        balance = try balance.adding(MicroCredits(figures[index].amount))
                    } else {
                        try take(
                            VerifierCrossIndex.Verdict(isFirstWithID: true), index, of: fileNumber, lines: lines,
                            into: &problems)
                    }
                }
            }
        }
    }

    /// What `verdict` on line `index` makes of it: a duplicate or a fork is a problem; the first with its id counts
    /// (its amount summed; a top-up's or reversal's receipt and refund steps checked).
    private mutating func take(
        _ verdict: VerifierCrossIndex.Verdict, _ index: Int, of fileNumber: Int,
        lines: UnsafeBufferPointer<LedgerVerifier.Line>, into problems: inout [VerificationProblem]
    ) throws {
        if let duplicate = verdict.duplicate {
            problems.append(duplicate)
        } else if verdict.isFirstWithID {
            // A top-up or a reversal is one line in thousands: the rest are only summed, read in place (a line
            // handed to a method of this pass would be copied, its strings retained and released).
            let kind = lines[index].entry!.kind
            if kind != .topup && kind != .reversal {
                balance = try balance.adding(lines[index].entry!.amount)
            } else {
                let line = lines[index]
                let path = files[fileNumber].path
                if let replayed = replayedReceipt(line, path: path) {
                    problems.append(replayed)
                    if let fork = verdict.fork { problems.append(fork) }
                    return
                }
                try count(line, path: path, into: &problems)
            }
        }
        if let fork = verdict.fork { problems.append(fork) }
    }

    /// The problem when `line` is a top-up of a payment reference an earlier top-up already credits (it is counted
    /// once); nil otherwise, noting the reference as credited by it when it is the first.
    private mutating func replayedReceipt(_ line: LedgerVerifier.Line, path: String) -> VerificationProblem? {
        guard let entry = line.entry, entry.kind == .topup, let reference = entry.reference,
            entry.refersTo == nil
        else { return nil }
        if let first = credited[reference] {
            return VerificationProblem(
                kind: .receiptReplayed, file: path, line: line.number,
                detail: "top-up \(entry.id) credits store transaction \(reference), which top-up \(first.id) at "
                    + "\(first.place) already credits; it is counted once")
        }
        credited[reference] = (entry.id, "\(path):\(line.number)")
        return nil
    }

    /// Counts the entry on `line` in the balance, notes a refund step, and checks a top-up's receipt.
    private mutating func count(
        _ line: LedgerVerifier.Line, path: String, into problems: inout [VerificationProblem]
    ) throws {
        // The fields are read where they are (copying a whole entry per line is most of the cost).
        balance = try balance.adding(line.entry!.amount)
        guard line.entry!.kind == .topup || line.entry!.kind == .reversal else { return }
        refundSequences.note(line.entry!, file: path, line: line.number)
        if line.entry!.kind == .topup, let detail = receiptProblem(line.entry!) {
            problems.append(VerificationProblem(kind: .receiptInvalid, file: path, line: line.number, detail: detail))
        }
    }

    /// Why a top-up's store receipt does not hold, or nil when it does (a simulated top-up has none, and is counted
    /// as such).
    private mutating func receiptProblem(_ entry: LedgerEntry) -> String? {
        if entry.receipt == nil {
            if entry.id.hasPrefix("topup-simulated-") {
                report.simulatedTopUps += 1
                return nil
            }
            return "top-up \(entry.id) has no store receipt"
        }
        guard let receiptCheck = verifier.receiptCheck else {
            return "top-up \(entry.id) has a receipt, but no store root or secret is configured to check it"
        }
        report.receiptsChecked += 1
        return receiptCheck(entry).map { "top-up \(entry.id): \($0)" }
    }
}
