import Signing

/// One thing `credit verify` found wrong, with where.
public struct VerificationProblem: Sendable, Equatable, CustomStringConvertible {
    /// What kind of tampering or damage it looks like.
    public enum Kind: String, Sendable, Codable {
        case changed, inserted, deleted, reordered, truncated, forked, duplicated, unreadable
        case headInvalid = "head-invalid"
        case headMissing = "head-missing"
        case receiptInvalid = "receipt-invalid"
        case unsigned
    }

    public var kind: Kind
    public var file: String
    /// The line, from 1; nil when the problem is the file as a whole.
    public var line: Int?
    public var detail: String

    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): \(kind.rawValue): \(detail)"
    }
}

/// What `credit verify` checked and found.
public struct VerificationReport: Sendable {
    public var entriesChecked = 0
    public var devices: [String] = []
    public var balance: MicroCredits = .zero
    public var receiptsChecked = 0
    public var simulatedTopUps = 0
    public var problems: [VerificationProblem] = []
    /// Things worth knowing that are not wrong (a head one entry behind after an interrupted write).
    public var notes: [String] = []

    public var isClean: Bool { problems.isEmpty }
}

/// Checks signed ledger files: every line's MAC over its exact bytes, every device's chain (`prev`, contiguous
/// sequence), every signed head, ids duplicated with other content, forks, and every top-up's store receipt.
public struct LedgerVerifier {
    public let macKey: [UInt8]
    public let headPublicKey: P256PublicKey?
    /// Checks a top-up's receipt; returns why it is bad, or nil when it verifies. Nil when receipts cannot be checked.
    public let receiptCheck: ((LedgerEntry) -> String?)?

    public init(macKey: [UInt8], headPublicKey: P256PublicKey?, receiptCheck: ((LedgerEntry) -> String?)?) {
        self.macKey = macKey
        self.headPublicKey = headPublicKey
        self.receiptCheck = receiptCheck
    }

    struct Line: Sendable {
        var number: Int
        /// Where the line's bytes are in its file's bytes.
        var start: Int
        var count: Int
        var entry: LedgerEntry?
        var macValid: Bool
        var parseError: String?
    }

    /// `device`'s entry `sequence` in `file`, one whose MAC verifies or not (a good file holds it at its place).
    static func entry(device: String, sequence: Int64, in file: ReadFile) -> LedgerEntry? {
        if sequence >= 1, sequence <= file.lines.count, let entry = file.lines[Int(sequence) - 1].entry,
            entry.device == device, entry.sequence == sequence
        {
            return entry
        }
        return file.lines.last { $0.entry?.device == device && $0.entry?.sequence == sequence }?.entry
    }

    /// Verifies `files`, checking each device's head from `heads` (by device) when given.
    public func verify(files: [String], heads: [String: SignedHead], requireHeads: Set<String> = []) throws
        -> VerificationReport
    {
        try verify(read: files.map(LedgerVerifier.read), heads: heads, requireHeads: requireHeads)
    }

    /// Verifies files already read with ``read(_:)``: the checking half of ``verify(files:heads:requireHeads:)``.
    ///
    /// Every line's MAC is checked over its exact bytes. A file whose every line is a signed entry of its device,
    /// verifying, in sequence, each linked to the one before (what a good file is) is then checked as a whole
    /// chain; any other is judged line by line, to say what is wrong where. Both end in the same cross-file checks.
    public func verify(read files: [ReadFile], heads: [String: SignedHead], requireHeads: Set<String> = []) throws
        -> VerificationReport
    {
        var report = VerificationReport()
        var crossIndex = VerifierCrossIndex()
        var balance = MicroCredits.zero
        var devices: Set<String> = []

        for (fileNumber, file) in files.enumerated() {
            let path = file.path
            let tornAt = file.tornAt
            let macValid = try LedgerVerifier.checkMACs(of: file, key: macKey)
            let fileDevice =
                path.lastPathComponent.hasSuffix(".jsonl") ? String(path.lastPathComponent.dropLast(6)) : nil
            let device = fileDevice ?? file.lines.first?.entry?.device ?? path
            devices.insert(device)
            var problems: [VerificationProblem] = []
            func problem(_ kind: VerificationProblem.Kind, _ line: Int?, _ detail: String) {
                problems.append(VerificationProblem(kind: kind, file: path, line: line, detail: detail))
            }
            if let tornAt {
                problem(.truncated, tornAt, "the last line is incomplete (no newline): an interrupted write or a cut")
            }
            // Across files: one id, one content; one (device, sequence), one entry.
            func crossCheck(index: Int) throws {
                let here = VerifierCrossIndex.LineReference(file: Int32(fileNumber), line: Int32(index))
                func entryAt(_ reference: VerifierCrossIndex.LineReference) -> LedgerEntry? {
                    files[Int(reference.file)].lines[Int(reference.line)].entry
                }
                func placeOf(_ reference: VerifierCrossIndex.LineReference) -> String {
                    "\(files[Int(reference.file)].path):\(files[Int(reference.file)].lines[Int(reference.line)].number)"
                }
                // The entry's fields are read where they are (copying a whole entry per line is most of the cost).
                let lineNumber = file.lines[index].number
                let id = file.lines[index].entry!.id
                if let other = crossIndex.firstLine(forID: id, recording: here, isMatch: { entryAt($0)?.id == id }) {
                    let entry = file.lines[index].entry!
                    if !entryAt(other)!.hasSameContent(as: entry) {
                        problem(.duplicated, lineNumber, "id \(id) is also at \(placeOf(other)) with other content")
                    }
                } else {
                    balance = try balance.adding(file.lines[index].entry!.amount)
                    if file.lines[index].entry!.kind == .topup {
                        checkReceipt(file.lines[index].entry!, line: lineNumber, report: &report, problem: problem)
                    }
                }
                let device = file.lines[index].entry!.device
                let sequence = file.lines[index].entry!.sequence
                if let other = crossIndex.exchange(device: device, sequence: sequence, with: here),
                    entryAt(other)?.macField != file.lines[index].entry!.macField,
                    files[Int(other.file)].path != path
                        || files[Int(other.file)].lines[Int(other.line)].number != lineNumber
                {
                    problem(.forked, lineNumber, "\(device) #\(sequence) differs from \(placeOf(other))")
                }
            }
            var expected: Int64 = 1
            var lastMAC = String(repeating: "0", count: 64)
            if let last = LedgerVerifier.cleanChain(of: file, device: device, macValid: macValid) {
                // A good file: nothing to judge line by line.
                for index in file.lines.indices {
                    report.entriesChecked += 1
                    try crossCheck(index: index)
                }
                expected = Int64(file.lines.count) + 1
                lastMAC = last.hex
            } else {
                let lines = zip(file.lines, macValid).map { line, valid in
                    var line = line
                    line.macValid = valid
                    return line
                }
                let present = Set(
                    lines.compactMap { $0.macValid && $0.entry?.device == device ? $0.entry?.sequence : nil })
                let validMACs = Set(lines.compactMap { $0.macValid ? $0.entry?.mac : nil })
                var seen: [Int64: (mac: String?, line: Int)] = [:]
                var reportedReorder = false
                // Set when the line before was damaged in place: the link from it to the next line cannot be judged.
                var linkUnknown = false
                for (index, line) in lines.enumerated() {
                    report.entriesChecked += 1
                    // The next line that verifies, to see whether a damaged line still sits in its place in the chain.
                    func next() -> LedgerEntry? {
                        lines[(index + 1)...].first { $0.macValid && $0.entry?.device == device }?.entry
                    }
                    guard let entry = line.entry else {
                        if line.number != tornAt {
                            problem(
                                .unreadable, line.number,
                                "the line is not a ledger entry (\(line.parseError ?? "?")): changed or damaged")
                            // Damaged where an entry should be: it takes that place, so no deletion is reported for it.
                            if next()?.sequence == expected + 1 {
                                expected += 1
                                linkUnknown = true
                            }
                        }
                        continue
                    }
                    if entry.mac == nil {
                        problem(
                            .unsigned, line.number,
                            "the entry carries no MAC (run `credit upgrade` for a ledger made before signing)")
                        continue
                    }
                    if !line.macValid {
                        // Changed in place: it still links to the entry before it or the one after it, and is not an
                        // altered copy of another line (whose MAC it would carry).
                        let inPlace =
                            entry.prev == lastMAC || next().map { $0.prev != nil && $0.prev == entry.mac } == true
                        if entry.device != device {
                            problem(
                                .inserted, line.number,
                                "entry \(entry.id) belongs to device \(entry.device) and its MAC does not verify with this ledger's key: spliced in from another ledger"
                            )
                        } else if !inPlace || entry.mac.map(validMACs.contains) == true {
                            problem(
                                .inserted, line.number,
                                "entry \(entry.id) (#\(entry.sequence)) does not verify with this ledger's key: inserted"
                            )
                        } else {
                            problem(
                                .changed, line.number,
                                "entry \(entry.id) (#\(expected)) was changed after it was written: its MAC does not match its bytes"
                            )
                            // It still takes its place in the chain, so the next line is judged on its own.
                            expected += 1
                            lastMAC = entry.mac ?? lastMAC
                            linkUnknown = true
                        }
                        continue
                    }
                    guard entry.device == device else {
                        problem(
                            .inserted, line.number, "entry \(entry.id) belongs to device \(entry.device), not \(device)"
                        )
                        continue
                    }
                    if let earlier = seen[entry.sequence] {
                        if earlier.mac == entry.mac {
                            problem(
                                .duplicated, line.number, "#\(entry.sequence) already appears on line \(earlier.line)")
                        } else {
                            problem(
                                .forked, line.number,
                                "a second, different entry #\(entry.sequence) (first on line \(earlier.line))")
                        }
                        continue
                    }
                    seen[entry.sequence] = (entry.mac, line.number)
                    if entry.sequence < expected {
                        if !reportedReorder {
                            problem(
                                .reordered, line.number,
                                "#\(entry.sequence) comes after #\(expected - 1): entries were moved")
                            reportedReorder = true
                        }
                    } else if entry.sequence > expected {
                        let missing = (expected..<entry.sequence).filter { !present.contains($0) }
                        if missing.count < Int(entry.sequence - expected) && !reportedReorder {
                            problem(
                                .reordered, line.number,
                                "#\(entry.sequence) comes where #\(expected) should be: entries were moved")
                            reportedReorder = true
                        }
                        if !missing.isEmpty {
                            let range = missing.count == 1 ? "#\(missing[0])" : "#\(missing.first!)-#\(missing.last!)"
                            problem(
                                .deleted, line.number,
                                "\(range) missing before this line: \(missing.count) entr\(missing.count == 1 ? "y" : "ies") deleted"
                            )
                        }
                        expected = entry.sequence + 1
                        lastMAC = entry.mac!
                    } else {
                        if entry.prev != lastMAC && !reportedReorder && !linkUnknown {
                            problem(
                                .changed, line.number,
                                "the chain is broken before #\(entry.sequence): its prev does not match the entry before it"
                            )
                        }
                        expected = entry.sequence + 1
                        lastMAC = entry.mac!
                    }
                    linkUnknown = false
                    try crossCheck(index: index)
                }
            }
            // The head: truncation and rollback show only against it.
            let lastSequence = expected - 1
            if let head = heads[device] {
                if let key = headPublicKey, !head.isValid(for: key) {
                    problem(
                        .headInvalid, nil, "the signed head of \(device) does not verify with the ledger's public key")
                } else if head.sequence > lastSequence {
                    let count = head.sequence - lastSequence
                    problem(
                        .truncated, file.lines.count,
                        "the head says #\(head.sequence) but the file ends at #\(lastSequence): \(count) entr\(count == 1 ? "y was" : "ies were") cut off the end, or an older copy was restored"
                    )
                } else if head.sequence == lastSequence && head.mac != lastMAC {
                    problem(
                        .changed, file.lines.count,
                        "the last entry #\(lastSequence) is not the one the head signed: an older or other copy was restored"
                    )
                } else if head.sequence < lastSequence,
                    LedgerVerifier.entry(device: device, sequence: head.sequence, in: file)?.mac != head.mac
                {
                    problem(
                        .changed, file.lines.count,
                        "the head signed #\(head.sequence), which the file no longer holds: the entries from #\(head.sequence) on were cut off and written again, or another copy was restored"
                    )
                } else if head.sequence < lastSequence {
                    report.notes.append(
                        "\(path): the head is at #\(head.sequence), behind the file's #\(lastSequence); the entries after it verify in the chain (an interrupted write, or written by a copy of this device)"
                    )
                }
            } else if requireHeads.contains(device) {
                problem(.headMissing, nil, "there is no signed head for \(device), so truncation cannot be ruled out")
            }
            report.problems.append(contentsOf: problems)
        }
        report.devices = devices.sorted()
        report.balance = balance
        return report
    }

    private func checkReceipt(
        _ entry: LedgerEntry, line: Int, report: inout VerificationReport,
        problem: (VerificationProblem.Kind, Int?, String) -> Void
    ) {
        if entry.receipt == nil {
            if entry.id.hasPrefix("topup-simulated-") {
                report.simulatedTopUps += 1
            } else {
                problem(.receiptInvalid, line, "top-up \(entry.id) has no store receipt")
            }
            return
        }
        guard let receiptCheck else {
            problem(
                .receiptInvalid, line,
                "top-up \(entry.id) has a receipt, but no store root or secret is configured to check it")
            return
        }
        report.receiptsChecked += 1
        if let reason = receiptCheck(entry) {
            problem(.receiptInvalid, line, "top-up \(entry.id): \(reason)")
        }
    }
}
