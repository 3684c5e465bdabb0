import Platform

/// What can go wrong with a ledger. Every case says what and where, in words a user can act on.
public enum LedgerError: Error, Equatable, CustomStringConvertible {
    /// Arithmetic on money would overflow.
    case overflow(String)
    /// A line in the middle of a ledger file cannot be read. The file is left untouched.
    case corruptLine(file: String, line: Int, reason: String)
    /// A signed line does not verify (its MAC is not the one its bytes give under the account's key, it carries
    /// none, or it does not chain from the line before it): it was changed, inserted or forged after it was written.
    /// Nothing is used or appended past it.
    case brokenChain(file: String, line: Int, reason: String)
    /// An entry with this id exists with other content.
    case conflict(id: String, existing: String, attempted: String)
    /// No entry has this id.
    case unknownEntry(String)
    /// The entry cannot be declined (not a charge, or already declined).
    case cannotDecline(id: String, reason: String)
    /// A file system call failed.
    case io(path: String, operation: String, errno: Int32)
    /// Anything else a caller got wrong, explained.
    case invalid(String)

    /// Whether a line of a ledger file is the trouble (unreadable, or not verifying): `credit verify` then checks
    /// the files as they are.
    public var isDamagedLine: Bool {
        switch self {
        case .corruptLine, .brokenChain: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .overflow(let what):
            return "amount out of range: \(what) does not fit in a 64-bit count of micro-credits"
        case .corruptLine(let file, let line, let reason):
            return "\(file): line \(line) cannot be read (\(reason)); the file was left untouched"
        case .brokenChain(let file, let line, let reason):
            // The first line's MAC failing is what a wrong key looks like, too (every line fails; the first is told).
            let cause =
                line == 1 && reason == LineMACCheck.mismatch
                ? "the ledger was changed after it was written, or keys/ledger.key is not the key it was signed with"
                : "the ledger was changed after it was written"
            return "\(file): line \(line) does not verify (\(reason)): \(cause), so nothing was used or written; "
                + "`credit verify` says what is wrong"
        case .conflict(let id, let existing, let attempted):
            return
                "entry \(id) already exists with other content (recorded: \(existing); now: \(attempted)); nothing was written"
        case .unknownEntry(let id):
            return "there is no entry with id \(id)"
        case .cannotDecline(let id, let reason):
            return "entry \(id) cannot be declined: \(reason); nothing was written"
        case .io(let path, let operation, let code):
            return "\(path): \(operation) failed: \(String(cString: strerror(code)))"
        case .invalid(let message):
            return message
        }
    }
}
