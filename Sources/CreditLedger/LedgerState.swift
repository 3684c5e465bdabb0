/// What a ledger knows from the entries it has read, and nothing about where they came from: every entry in the
/// order read, the index from an id to the entry that counts for it, what the sums read of each entry that counts
/// (its ``EntryTally``), and the balance. A value with no I/O: it is built and tested without a disk, and
/// ``Ledger`` keeps one, changed only under its lock.
///
/// The balance is the sum of the amounts over distinct ids, whatever the order: the first entry read with an id
/// counts, a later one with the same content is a copy, and one with other content is reported and not counted.
struct LedgerState {
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
        let position = entries.withUnsafeBufferPointer { list in idIndex.find(hash: hash) { list[$0].id == id } }
        return position.map { entries[$0] }
    }

    /// The top-up that counts for payment reference `reference` (the store's transaction id), if any.
    func topUp(reference: String) -> LedgerEntry? {
        creditedReferences[reference].map { entries[$0] }
    }

    /// The refund steps that count for payment reference `reference`: reversals and the top-ups that refer to them,
    /// in the order read.
    func refundSteps(reference: String) -> [LedgerEntry] {
        (refundStepReferences[reference] ?? []).map { entries[$0] }
    }

    /// Whether `entry` comes before `other` in display order (time, then device, then sequence).
    static func isEarlier(_ entry: LedgerEntry, than other: LedgerEntry) -> Bool {
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
    /// first device's, which the history starts with. `hashes`, when given, are the ids' hashes, already made. The fields are taken out
    /// of `self` for the loop, so that the million accesses of a load are plain local ones.
    mutating func count(from first: Int, file: String, firstLine: Int, hashes known: [UInt64]? = nil)
        -> [LedgerNotice]
    {
        var notices: [LedgerNotice] = []
        var index = idIndex
        var positions = countedPositions
        var counted = tallies
        var codes = featureCodes
        var sum = balance
        var references = creditedReferences
        var refundSteps = refundStepReferences
        var opening = openingSlot
        idIndex = EntryIDIndex()
        refundStepReferences = [:]
        countedPositions = []
        tallies = []
        defer {
            idIndex = index
            countedPositions = positions
            tallies = counted
            featureCodes = codes
            balance = sum
            creditedReferences = references
            refundStepReferences = refundSteps
            openingSlot = opening
        }
        if entries.count - first > 1 {
            // A load: room for all at once. (One append at a time grows as arrays do.)
            index.reserve(index.count + entries.count - first)
            positions.reserveCapacity(positions.count + entries.count - first)
            counted.reserveCapacity(counted.count + entries.count - first)
        }
        entries.withUnsafeBufferPointer { list in
            // In groups: the hashes first, touching each one's slot so the table's cache misses overlap, then
            // the inserts, which find their slots in the cache.
            var hashes:
                (
                    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
                ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var touched: UInt64 = 0
            withUnsafeMutableBytes(of: &hashes) { raw in
                let group = raw.bindMemory(to: UInt64.self)
                var start = first
                while start < list.count {
                    let count = Swift.min(group.count, list.count - start)
                    for offset in 0..<count {
                        let hash = known?[start + offset - first] ?? EntryIDIndex.hash(list[start + offset].id)
                        group[offset] = hash
                        touched &+= index.slotValue(hash: hash)
                    }
                    for offset in 0..<count {
                        let position = start + offset
                        if let existing = index.insert(
                            position, hash: group[offset], matches: { list[$0].id == list[position].id })
                        {
                            if !list[existing].hasSameContent(as: list[position]) {
                                notices.append(
                                    .conflictingDuplicate(
                                        id: list[position].id, file: file,
                                        line: firstLine == 0 ? 0 : firstLine + position - first))
                            } else if list[position].kind == .opening, let slot = opening,
                                positions[slot] == UInt32(existing),
                                LedgerState.isEarlier(list[position], than: list[existing])
                            {
                                // An earlier copy of the opening: it is the one that counts (the same amount).
                                positions[slot] = UInt32(position)
                                counted[slot].time = list[position].time.milliseconds
                                index.replace(existing, with: position, hash: group[offset])
                            }
                            continue
                        }
                        // (A top-up is one entry in thousands: the dictionary is looked at for those alone.)
                        // (One that refers to another entry, reinstating a reversal, is a step of the transaction with
                        // its own derived id, not a second credit.)
                        if list[position].kind == .topup, let reference = list[position].reference,
                            list[position].refersTo == nil
                        {
                            if let other = references[reference] {
                                notices.append(
                                    .receiptCountedOnce(
                                        id: list[position].id, reference: reference, countedAs: list[other].id,
                                        file: file, line: firstLine == 0 ? 0 : firstLine + position - first))
                                continue
                            }
                            references[reference] = position
                        } else if list[position].kind == .reversal || list[position].kind == .topup,
                            let reference = list[position].reference
                        {
                            refundSteps[reference, default: []].append(position)
                        }
                        if list[position].kind == .opening && opening == nil { opening = positions.count }
                        positions.append(UInt32(position))
                        counted.append(
                            EntryTally(
                                amount: list[position].amount.rawValue, time: list[position].time.milliseconds,
                                feature: codes.code(for: list[position].feature), kind: list[position].kind))
                        // An overflowing ledger is reported by `credit verify`; here the balance stays put rather
                        // than trap.
                        let (total, overflow) = sum.rawValue.addingReportingOverflow(list[position].amount.rawValue)
                        if !overflow { sum = MicroCredits(total) }
                    }
                    start += count
                }
            }
            if touched == 1 { index.noteTouched() }  // keeps the touching loads
        }
        return notices
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
