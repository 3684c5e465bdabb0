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
    /// Entry `id` (`file`, `line`) would take the balance beyond what a 64-bit count of micro-credits holds (only a
    /// signed entry made with the key can): it is not counted, in the balance or in any sum.
    case amountOutOfRange(id: String, file: String, line: Int)
    /// Another device's file here (`file`, taken from it by a join, a merge or a sync) goes to `fileSequence` (0: it
    /// is not here at all), but that device's signed head, kept here, says it once went to `headSequence`: it was
    /// cut short, or an older copy was put in its place. It is read as it is; what it no longer holds is not counted.
    case mergedFileBehindHead(device: String, file: String, headSequence: Int64, fileSequence: Int64)
    /// Another device's file here no longer holds the entry its signed head, kept here, signed (`headSequence`): it
    /// was rewritten from there, or another copy put in its place. It is read as it is.
    case mergedFileRewritten(device: String, file: String, headSequence: Int64)

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
        case .amountOutOfRange(let id, let file, let line):
            return "\(file)\(line == 0 ? "" : ": line \(line)"): entry \(id)'s amount would take the balance beyond "
                + "what a 64-bit count of micro-credits holds; it is not counted (run `credit verify`)"
        case .readOnly(let directory):
            return "\(directory) cannot be written (a read-only mount, or no write permission): the ledger was read "
                + "as it is, and nothing was collected or written"
        case .tornTailLeft(let file, let bytes):
            return
                "\(file): an unfinished last line (\(CountNoun("byte", "bytes")(bytes))) is not counted; the file was left as it is "
                + "(it cannot be written here)"
        case .mergedFileBehindHead(let device, let file, let headSequence, let fileSequence):
            let held =
                fileSequence == 0
                ? "its file here (\(file)) is gone" : "its file here (\(file)) goes only to entry #\(fileSequence)"
            return "device \(device)'s signed head says its entries went to #\(headSequence), but \(held): it was "
                + "cut short, or an older copy was put in its place. What is shown here leaves out its entries after "
                + "#\(fileSequence). To bring them back, merge that device's data directory or file again (`credit "
                + "merge`), or sync through the folder it syncs to (`credit sync`); `credit verify` says more"
        case .mergedFileRewritten(let device, let file, let headSequence):
            return "device \(device)'s file here (\(file)) no longer holds the entry #\(headSequence) its signed "
                + "head signed: it was rewritten from there, or another copy was put in its place, and it is read as "
                + "it is. Run `credit verify` to see what differs, then merge that device's own file again (`credit "
                + "merge`)"
        }
    }
}
