import CreditLedger

/// The credit screen's list: every distinct entry, newest first, with the running balance after it.
///
/// A view over the ledger's entries (shared, not copied) in display order, with the balances worked out once: a
/// million rows cost two small arrays, not two copies of a million entries.
public struct CreditScreenRows: RandomAccessCollection, Sendable {
    public typealias Element = (entry: LedgerEntry, balanceAfter: MicroCredits)

    private let entries: [LedgerEntry]
    /// Positions in `entries`, oldest first.
    private let order: [Int]
    /// The running balance after each of `order`, oldest first.
    private let after: [MicroCredits]

    /// The rows of `entries` at the positions `oldestFirst` (display order, oldest first).
    ///
    /// - Throws: ``LedgerError/overflow(_:)`` if the running balance leaves the range of micro-credits.
    public init(entries: [LedgerEntry], oldestFirst: [Int]) throws {
        var after: [MicroCredits] = []
        after.reserveCapacity(oldestFirst.count)
        var running = MicroCredits.zero
        try entries.withUnsafeBufferPointer { list in
            for position in oldestFirst {
                running = try running.adding(list[position].amount)
                after.append(running)
            }
        }
        self.entries = entries
        self.order = oldestFirst
        self.after = after
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { order.count }

    /// Row `index`, from 0 for the newest.
    public subscript(index: Int) -> Element {
        let oldestFirst = order.count - 1 - index
        return (entries[order[oldestFirst]], after[oldestFirst])
    }
}
