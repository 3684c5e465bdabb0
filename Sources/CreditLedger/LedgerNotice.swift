/// Something the ledger did or found on load that a user should be told about. Nothing is ever repaired silently.
public enum LedgerNotice: Sendable, Equatable, CustomStringConvertible {
    /// The last line of a file was incomplete: it was moved aside into `savedTo` and the file cut back.
    case tornTailMovedAside(file: String, bytes: Int, savedTo: String)
    /// Two files hold different entries with the same id; the first one read counts.
    case conflictingDuplicate(id: String, file: String, line: Int)
    /// Entry `id` was written and synced, but what follows an append (keeping the signed head up, or an
    /// ``AppendObserver``) failed. The entry stands: the append succeeded, and a retry would only find it recorded.
    case followUpFailed(id: String, reason: String)
    /// This device's signed head is not kept up on opening (it cannot be read, or the file no longer bears it out);
    /// nothing is blocked, and `credit verify` reports it.
    case headNotKept(reason: String)
    /// A top-up (`id`, read from `file` at `line`, 0 when not known) credits the payment reference `reference` that
    /// top-up `countedAs` already credits: one store transaction backs at most one credit, so it is not counted.
    case receiptCountedOnce(id: String, reference: String, countedAs: String, file: String, line: Int)
    /// The data directory cannot be written (a read-only mount, a backup without write permission): the ledger was
    /// read as it is, and nothing was collected or written.
    case readOnly(directory: String)
    /// The last line of a file is incomplete, and the file could not be cut back (read-only): the line is not
    /// counted, and the file was left as it is.
    case tornTailLeft(file: String, bytes: Int)

    public var description: String {
        switch self {
        case .tornTailMovedAside(let file, let bytes, let savedTo):
            return
                "\(file): an unfinished last line (\(CountNoun("byte", "bytes")(bytes)), from an interrupted write) was moved aside to "
                + "\(savedTo); every complete entry is kept"
        case .conflictingDuplicate(let id, let file, let line):
            return "\(file): line \(line) has id \(id), which another entry already has with other content; "
                + "it is not counted (run `credit verify`)"
        case .followUpFailed(let id, let reason):
            return "entry \(id) is recorded, but after it \(reason)"
        case .headNotKept(let reason):
            return "this device's signed head is not kept up: \(reason); run `credit verify`"
        case .receiptCountedOnce(let id, let reference, let countedAs, let file, let line):
            return "\(file)\(line == 0 ? "" : ": line \(line)"): top-up \(id) credits store transaction \(reference), "
                + "which top-up \(countedAs) already credits; it is not counted again (run `credit verify`)"
        case .readOnly(let directory):
            return "\(directory) cannot be written (a read-only mount, or no write permission): the ledger was read "
                + "as it is, and nothing was collected or written"
        case .tornTailLeft(let file, let bytes):
            return
                "\(file): an unfinished last line (\(CountNoun("byte", "bytes")(bytes))) is not counted; the file was left as it is "
                + "(it cannot be written here)"
        }
    }
}
