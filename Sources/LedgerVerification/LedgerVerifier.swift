import DurableFiles
import LedgerEntries
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

    package struct Line: Sendable {
        package var number: Int
        /// Where the line's bytes are in its file's bytes.
        package var start: Int
        package var count: Int
        package var entry: LedgerEntry?
        var macValid: Bool
        package var parseError: String?
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
        try verify(files: files, heads: heads, requireHeads: requireHeads, hints: [:])
    }

    /// ``verify(files:heads:requireHeads:)`` with `hints`, by file name: where each file's last full read cut it
    /// (``LedgerCheckpoint/lineHints(in:macKey:)``).
    package func verify(
        files: [String], heads: [String: SignedHead], requireHeads: Set<String>, hints: [String: DeviceFile.Hints]
    ) throws -> VerificationReport {
        // Each line's MAC checked as it is read, a large file on several threads.
        try verify(
            read: files.map { try LedgerVerifier.read($0, macKey: macKey, hints: hints[Files.lastComponent(of: $0)]) },
            heads: heads, requireHeads: requireHeads)
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
        var pass = VerificationPass(verifier: self, files: files)
        for fileNumber in files.indices {
            try pass.verify(fileNumber: fileNumber, head: { heads[$0] }, requireHeads: requireHeads)
        }
        return pass.finished()
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
        // The MACs first: one that verifies settles it at once, where a look at every line's MAC would not.
        if !macValid.contains(true) && file.lines.allSatisfy({ $0.entry?.mac != nil }) {
            return VerificationProblem(
                kind: .otherAccount, file: file.path, line: nil,
                detail: "another account's ledger: not one of its MACs verifies with this account's key (a device "
                    + "joins an account with `credit join DIR`)")
        }
        return nil
    }

    /// The device a file holds: named by its file name (`<device>.jsonl`), else by its first entry, else its path.
    static func device(of file: ReadFile) -> String {
        let name = Files.lastComponent(of: file.path)
        // In a data directory's `ledger/`, the file's name says whose it is (an entry of another device in it is a
        // problem); a copy given by path elsewhere is its entries' device's, whatever it was named.
        let inLedgerDirectory = Files.lastComponent(of: Files.parent(of: file.path)) == "ledger"
        if name.hasSuffix(".jsonl") && (inLedgerDirectory || file.lines.first?.entry == nil) {
            return String(name.dropLast(6))
        }
        return file.lines.first?.entry?.device ?? file.path
    }
}
