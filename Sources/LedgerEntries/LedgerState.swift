/// What a ledger knows from the entries it has read, and nothing about where they came from: every entry in the
/// order read, the index from an id to the entry that counts for it, what the sums read of each entry that counts
/// (its ``EntryTally``), and the balance. A value with no I/O: it is built and tested without a disk, and
/// ``Ledger`` keeps one, changed only under its lock.
///
/// The balance is the sum of the amounts over distinct ids, whatever the order: the first entry read with an id
/// counts, a later one with the same content is a copy, and one with other content is reported and not counted.
package struct LedgerState {
    /// Every entry read, in the order read. Entries are added by ``add(_:file:)`` or by a read through
    /// ``appendEntries(_:)`` followed by ``count(from:file:firstLine:hashes:)``.
    private(set) var entries: [LedgerEntry] = []
    /// The balance: the sum of amounts over distinct ids.
    private(set) var balance: MicroCredits = .zero
    /// Where in `entries` the entry that counts for each id is.
    private var idIndex = EntryIDIndex()
    /// The positions in `entries` of the entries that count, one per id, in the order read.
    private(set) var countedPositions: [UInt32] = []
    /// What the sums read of each of them, in the same order.
    private(set) var tallies: [EntryTally] = []
    /// The numbers of the feature keys in `tallies`.
    private var featureCodes = FeatureCodes()
    /// The position in `entries` of the top-up that counts for each payment reference: one store transaction backs
    /// at most one credit, whatever the entry ids (a handful of entries, so a plain dictionary).
    private var creditedReferences: [String: Int] = [:]
    /// The positions in `entries` of the refund steps that count (reversals, and top-ups that refer to a reversal)
    /// for each payment reference: a refund step's id names a store event no device can guess, so a transaction's
    /// steps are found by its reference.
    private var refundStepReferences: [String: [Int]] = [:]
    /// Where in `countedPositions` (and `tallies`) the opening that counts is: the earliest one read.
    private var openingSlot: Int?

    /// The feature keys, by code - 1.
    var featureNames: [String] { featureCodes.names }

    // MARK: looking up

    /// The entry that counts for `id`.
    func entry(id: String) -> LedgerEntry? {
        let hash = EntryIDIndex.hash(id)
        let position = entries.withUnsafeBufferPointer { list in idIndex.find(hash: hash) { list[$0].hasID(id) } }
        return position.map { entries[$0] }
    }

    /// The top-up that counts for payment reference `reference` (the store's transaction id), if any.
    func topUp(reference: String) -> LedgerEntry? {
        creditedReferences[reference].map { entries[$0] }
    }

    /// The payment references a top-up that counts credits (what a checkpoint keeps of them).
    var creditedReferenceNames: Dictionary<String, Int>.Keys { creditedReferences.keys }

    /// The refund steps that count for payment reference `reference`: reversals and the top-ups that refer to them,
    /// in the order read.
    func refundSteps(reference: String) -> [LedgerEntry] {
        (refundStepReferences[reference] ?? []).map { entries[$0] }
    }

    /// Whether `entry` comes before `other` in display order (time, then device, then sequence).
    package static func isEarlier(_ entry: LedgerEntry, than other: LedgerEntry) -> Bool {
        (entry.time.milliseconds, entry.device, entry.sequence) < (
            other.time.milliseconds, other.device, other.sequence
        )
    }

    /// `device`'s entry `sequence`, as read (the newest first: a head is near the end).
    func entry(device: String, sequence: Int64) -> LedgerEntry? {
        entries.last { $0.sequence == sequence && $0.device == device }
    }

    // MARK: adding

    /// Adds one entry just written to `file` and counts it.
    mutating func add(_ entry: LedgerEntry, file: String) -> [LedgerNotice] {
        entries.append(entry)
        return count(from: entries.count - 1, file: file, firstLine: 0)
    }

    /// Lets `read` append entries in place (the array is lent, never copied); what it appended before throwing is
    /// dropped. What it appended is not counted until ``count(from:file:firstLine:hashes:)``.
    mutating func appendEntries(_ read: (inout [LedgerEntry]) throws -> Void) throws {
        let first = entries.count
        do {
            try read(&entries)
        } catch {
            entries.removeSubrange(first...)
            throw error
        }
    }

    /// ``appendEntries(_:)`` for a read that may count what it reads as it goes: a first read (nothing read or
    /// counted before) is given an ``EntryCounter`` of `file`'s entries (the first on line `firstLine`). What `read`
    /// counted there is taken in when it returns: the entries counted (from the first) and the notices they gave,
    /// to be told before those of ``count(from:file:firstLine:hashes:)`` for the rest. Nothing of it is kept when
    /// `read` throws.
    mutating func appendEntries(
        countingAlong file: String, firstLine: Int, _ read: (inout [LedgerEntry], EntryCounter?) throws -> Void
    ) throws -> (counted: Int, notices: [LedgerNotice]) {
        let counter = entries.isEmpty && countedPositions.isEmpty ? EntryCounter(file: file, firstLine: firstLine) : nil
        try appendEntries { entries in try read(&entries, counter) }
        guard let counter, counter.counted > 0 else { return (0, []) }
        takeIn(counter.counting)
        return (counter.counted, counter.counting.notices)
    }

    /// Takes the counts back from `counting` (what a count took out of `self` and added to).
    private mutating func takeIn(_ counting: LedgerCounting) {
        idIndex = counting.index
        countedPositions = counting.positions
        tallies = counting.tallies
        featureCodes = counting.codes
        balance = counting.sum
        creditedReferences = counting.references
        refundStepReferences = counting.refundSteps
        openingSlot = counting.opening
    }

    /// Forgets everything.
    mutating func removeAll() {
        entries = []
        idIndex.removeAll()
        countedPositions = []
        tallies = []
        featureCodes = FeatureCodes()
        creditedReferences = [:]
        refundStepReferences = [:]
        openingSlot = nil
        balance = .zero
    }

    /// Counts `entries[first...]` (read from `file`, the first on line `firstLine`, 0 when not known), each unless
    /// its id is already counted; returns a ``LedgerNotice/conflictingDuplicate(id:file:line:)`` for each id seen
    /// before with other content, and a ``LedgerNotice/receiptCountedOnce(id:reference:countedAs:file:line:)`` for
    /// each top-up of a payment reference another top-up already credits (it is not counted). Of several copies of
    /// the opening (one per device that made its own, before devices joined), the earliest counts: the account's
    /// first device's, which the history starts with. `hashes`, when given, are the ids' hashes, already made.
    mutating func count(from first: Int, file: String, firstLine: Int, hashes known: [UInt64]? = nil)
        -> [LedgerNotice]
    {
        // The fields are taken out of `self` for the loop, so that the million accesses of a load are plain local
        // ones.
        var counting = LedgerCounting(
            index: idIndex, positions: countedPositions, tallies: tallies, codes: featureCodes, sum: balance,
            references: creditedReferences, refundSteps: refundStepReferences, opening: openingSlot,
            file: file, firstLine: firstLine, first: first)
        idIndex = EntryIDIndex()
        refundStepReferences = [:]
        countedPositions = []
        tallies = []
        defer { takeIn(counting) }
        if entries.count - first > 1 {
            // A load: room for all at once. (One append at a time grows as arrays do.)
            counting.reserve(entries.count - first)
        }
        entries.withUnsafeBufferPointer { list in counting.countInGroups(list, hashes: known) }
        return counting.notices
    }

    // MARK: sums

    /// Takings by feature over the entries that count written at or after `from` (milliseconds since the epoch),
    /// most charged first.
    func takings(fromMilliseconds from: Int64) throws -> [FeatureTakings] {
        var table = TakingsTable(lines: featureNames.count)
        try tallies.withUnsafeBufferPointer { tallies in
            for tally in tallies where tally.feature != 0 && tally.time >= from {
                guard tally.kind == .charge || tally.kind == .refund else { continue }
                try table.add(kind: tally.kind, line: Int(tally.feature - 1), amount: MicroCredits(tally.amount))
            }
        }
        return try table.sorted(names: featureNames)
    }

    /// The credit screen's totals over the entries that count.
    func totals() throws -> LedgerTotals {
        var opening = MicroCredits.zero
        var used = MicroCredits.zero
        var toppedUp = MicroCredits.zero
        try tallies.withUnsafeBufferPointer { tallies in
            for tally in tallies {
                let amount = MicroCredits(tally.amount)
                switch tally.kind {
                case .opening: opening = try opening.adding(amount)
                case .charge, .refund: used = try used.subtracting(amount)
                case .topup, .reversal: toppedUp = try toppedUp.adding(amount)
                }
            }
        }
        return LedgerTotals(used: used, toppedUp: toppedUp, opening: opening)
    }
}
