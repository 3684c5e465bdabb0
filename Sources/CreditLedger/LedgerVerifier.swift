import DurableFiles
import Signing

/// One thing `credit verify` found wrong, with where.
public struct VerificationProblem: Sendable, Equatable, CustomStringConvertible {
    /// What kind of tampering or damage it looks like.
    public enum Kind: String, Sendable, Codable {
        case changed, inserted, deleted, reordered, truncated, forked, duplicated, unreadable
        case headInvalid = "head-invalid"
        case headMissing = "head-missing"
        case receiptInvalid = "receipt-invalid"
        /// A second top-up crediting a store transaction another top-up already credits (under another id): one store
        /// transaction backs at most one credit, so it is counted once.
        case receiptReplayed = "receipt-replayed"
        /// A signed head whose device has no ledger file here: the file was removed (or this device's id and file
        /// were, and a new device started).
        case headOrphaned = "head-orphaned"
        /// A store transaction's top-up, reversals and re-credits are not a sequence that can have happened (two
        /// reversals in a row, more taken back than bought): see ``RefundSequenceCheck``.
        case refundSequence = "refund-sequence"
        case unsigned
        /// Every line is a signed entry and not one MAC verifies with this account's key: the file is another
        /// account's ledger (judged as a whole, not line by line as changed).
        case otherAccount = "other-account"
        /// Not one line of the file is a ledger entry: it is not a ledger file at all.
        case notALedger = "not-a-ledger"
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
    /// verifying, in sequence, each linked to the one before (what a good file is: ``cleanChain(of:device:macValid:)``)
    /// is then checked as a whole chain; any other is judged line by line (``LineJudge``), to say what is wrong
    /// where. Each entry that takes its place in the chain is checked against every file (``VerifierCrossIndex``),
    /// and the file's end against its device's signed head (``checkHead(_:required:device:file:end:publicKey:)``).
    /// A file's problems are reported in the order of its lines, the head's last.
    public func verify(read files: [ReadFile], heads: [String: SignedHead], requireHeads: Set<String> = []) throws
        -> VerificationReport
    {
        var report = VerificationReport()
        var crossIndex = VerifierCrossIndex()
        var balance = MicroCredits.zero
        var devices: Set<String> = []
        // The first top-up line crediting each payment reference (top-ups only: a few).
        var credited: [String: (id: String, place: String)] = [:]
        var refundSequences = RefundSequenceCheck()

        for (fileNumber, file) in files.enumerated() {
            let macValid = try LedgerVerifier.checkMACs(of: file, key: macKey)
            if let whole = LedgerVerifier.wholeFileProblem(file, macValid: macValid) {
                report.problems.append(whole)
                if whole.kind == .otherAccount { report.entriesChecked += file.lines.count }
                continue
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
            // An entry in its place in the chain, across files: the first with its id counts (and its receipt is
            // checked); a copy with other content, or another entry at its (device, sequence), is a problem.
            func crossCheck(_ index: Int) throws {
                let verdict = crossIndex.check(line: index, of: file, number: fileNumber, in: files)
                if let duplicate = verdict.duplicate {
                    problems.append(duplicate)
                } else if verdict.isFirstWithID {
                    if file.lines[index].entry!.kind == .topup, let reference = file.lines[index].entry!.reference,
                        file.lines[index].entry!.refersTo == nil
                    {
                        let id = file.lines[index].entry!.id
                        if let first = credited[reference] {
                            problems.append(
                                VerificationProblem(
                                    kind: .receiptReplayed, file: file.path, line: file.lines[index].number,
                                    detail: "top-up \(id) credits store transaction \(reference), which top-up "
                                        + "\(first.id) at \(first.place) already credits; it is counted once"))
                            if let fork = verdict.fork { problems.append(fork) }
                            return
                        }
                        credited[reference] = (id, "\(file.path):\(file.lines[index].number)")
                    }
                    // The fields are read where they are (copying a whole entry per line is most of the cost).
                    balance = try balance.adding(file.lines[index].entry!.amount)
                    if file.lines[index].entry!.kind == .topup || file.lines[index].entry!.kind == .reversal {
                        refundSequences.note(file.lines[index].entry!, file: file.path, line: file.lines[index].number)
                    }
                    if file.lines[index].entry!.kind == .topup,
                        let detail = receiptProblem(file.lines[index].entry!, report: &report)
                    {
                        problems.append(
                            VerificationProblem(
                                kind: .receiptInvalid, file: file.path, line: file.lines[index].number, detail: detail))
                    }
                }
                if let fork = verdict.fork { problems.append(fork) }
            }
            let end: ChainEnd
            if let last = LedgerVerifier.cleanChain(of: file, device: device, macValid: macValid) {
                // A good file: nothing to judge line by line.
                for index in file.lines.indices { try crossCheck(index) }
                end = ChainEnd(lastSequence: Int64(file.lines.count), lastMAC: last.hex)
            } else {
                var judge = LineJudge(file: file, device: device, macValid: macValid)
                for index in file.lines.indices {
                    let verdict = judge.judge(index)
                    problems.append(contentsOf: verdict.problems)
                    if verdict.takesItsPlace { try crossCheck(index) }
                }
                end = judge.end
            }
            // Entries: a cut last line or an unreadable one is a problem, not an entry checked.
            report.entriesChecked += file.lines.reduce(0) { $0 + ($1.entry == nil ? 0 : 1) }
            // The head: truncation and rollback show only against it.
            let head = LedgerVerifier.checkHead(
                heads[device], required: requireHeads.contains(device), device: device, file: file, end: end,
                publicKey: headPublicKey)
            problems.append(contentsOf: head.problems)
            if let note = head.note { report.notes.append(note) }
            report.problems.append(contentsOf: problems)
        }
        report.problems.append(contentsOf: refundSequences.problems())
        report.devices = devices.sorted()
        report.balance = balance
        return report
    }

    /// What is wrong with `file` as a whole, when no line of it can be judged as this account's: not one line is an
    /// entry (not a ledger), or every line is a signed entry and none verifies (another account's ledger).
    static func wholeFileProblem(_ file: ReadFile, macValid: [Bool]) -> VerificationProblem? {
        guard !file.lines.isEmpty else { return nil }
        if file.lines.allSatisfy({ $0.entry == nil }) {
            return VerificationProblem(
                kind: .notALedger, file: file.path, line: nil,
                detail: "no line of it is a ledger entry: this is not a ledger file")
        }
        if file.lines.allSatisfy({ $0.entry?.mac != nil }) && !macValid.contains(true) {
            return VerificationProblem(
                kind: .otherAccount, file: file.path, line: nil,
                detail: "another account's ledger: not one of its MACs verifies with this account's key (a device "
                    + "joins an account with `credit join DIR`)")
        }
        return nil
    }

    /// The device a file holds: named by its file name (`<device>.jsonl`), else by its first entry, else its path.
    static func device(of file: ReadFile) -> String {
        let name = file.path.lastPathComponent
        // In a data directory's `ledger/`, the file's name says whose it is (an entry of another device in it is a
        // problem); a copy given by path elsewhere is its entries' device's, whatever it was named.
        let inLedgerDirectory = Files.parent(of: file.path).lastPathComponent == "ledger"
        if name.hasSuffix(".jsonl") && (inLedgerDirectory || file.lines.first?.entry == nil) {
            return String(name.dropLast(6))
        }
        return file.lines.first?.entry?.device ?? file.path
    }

    /// Why a top-up's store receipt does not hold, or nil when it does (a simulated top-up has none, and is counted
    /// as such).
    private func receiptProblem(_ entry: LedgerEntry, report: inout VerificationReport) -> String? {
        if entry.receipt == nil {
            if entry.id.hasPrefix("topup-simulated-") {
                report.simulatedTopUps += 1
                return nil
            }
            return "top-up \(entry.id) has no store receipt"
        }
        guard let receiptCheck else {
            return "top-up \(entry.id) has a receipt, but no store root or secret is configured to check it"
        }
        report.receiptsChecked += 1
        return receiptCheck(entry).map { "top-up \(entry.id): \($0)" }
    }
}
