import LedgerEntries

/// Why a merge (or a join) took nothing: the file, the line, and what is wrong. A merge takes a file whole or not at
/// all, and when it throws this, not a byte of the data directory has changed.
public struct MergeRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Equatable {
        /// No line's MAC verifies with this account's ledger key: the file is another account's (or all forged).
        case otherAccount
        /// A line's MAC does not verify with this account's key, while others do: forged or changed.
        case forged(String)
        /// A line carries no MAC (a ledger made before signing).
        case unsigned
        /// A line is not a ledger entry.
        case unreadable(String)
        /// The last line has no newline: a torn write, or a copy not finished.
        case cut
        /// The chain does not hold: a sequence missing, repeated or out of order, a `prev` that does not link, an
        /// entry of another device in the file.
        case chain(String)
        /// The head given with the file does not verify, or does not agree with the file.
        case head(String)
        /// The file verifies, but disagrees with what this ledger holds (a fork, or an id with other content).
        case disagrees(String)
        /// The path is neither a ledger file nor a data directory with ledger files.
        case notALedger(String)
    }

    /// The file (or head, or directory) refused.
    public var file: String
    /// The line, from 1; nil when the problem is the file as a whole.
    public var line: Int?
    public var reason: Reason

    public init(file: String, line: Int?, reason: Reason) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    public var description: String {
        let place = file + (line.map { " line \($0)" } ?? "")
        return "\(place): \(why); nothing was merged, and the data directory is unchanged"
    }

    /// Why, in words, without the place.
    public var why: String {
        let why: String
        switch reason {
        case .otherAccount:
            why =
                "its MACs do not verify with this account's ledger key: it is another account's ledger (or forged). "
                + "A device joins an account with `credit join DIR` on a new data directory, not by merging"
        case .forged(let detail): why = "forged or changed: \(detail)"
        case .unsigned: why = "the entry carries no MAC, so it cannot be verified (a ledger made before signing)"
        case .unreadable(let detail): why = "cannot be read: \(detail)"
        case .cut: why = "cannot be read: the last line has no newline (a torn write)"
        case .chain(let detail): why = "the chain does not hold: \(detail)"
        case .head(let detail): why = "the head given with it does not agree: \(detail)"
        case .disagrees(let detail): why = "it disagrees with this ledger: \(detail)"
        case .notALedger(let detail): why = detail
        }
        return why
    }
}
