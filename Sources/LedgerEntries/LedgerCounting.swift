/// What ``LedgerState/count(from:file:firstLine:hashes:)`` works on, taken out of the state for the loop: the id
/// index, the entries that count and their tallies, the balance, the payment references credited and refund steps,
/// the opening's slot, and the notices so far, with where the entries were read from.
struct LedgerCounting {
    var index: EntryIDIndex
    var positions: [UInt32]
    var tallies: [EntryTally]
    var codes: FeatureCodes
    var sum: MicroCredits
    var references: [String: Int]
    var refundSteps: [String: [Int]]
    var opening: Int?
    let file: String
    /// The line of the entry at `first`, 0 when not known.
    let firstLine: Int
    /// The position of the first entry being counted.
    let first: Int
    var notices: [LedgerNotice] = []

    /// Makes room for `count` more entries that count.
    mutating func reserve(_ count: Int) {
        index.reserve(index.count + count)
        positions.reserveCapacity(positions.count + count)
        tallies.reserveCapacity(tallies.count + count)
    }

    /// Counts `list[first...]` in groups: the hashes first, touching each one's slot so the table's cache misses
    /// overlap, then the inserts, which find their slots in the cache. `known` are the ids' hashes, already made.
    mutating func countInGroups(_ list: UnsafeBufferPointer<LedgerEntry>, hashes known: [UInt64]?) {
        let first = self.first
        if let known {
            known.withUnsafeBufferPointer { hashes in
                countInGroups(list, range: first..<list.count) { hashes[$0 - first] }
            }
        } else {
            countInGroups(list, range: first..<list.count) { list[$0].idHash }
        }
    }

    /// Counts `list[range]` (the entries before it counted already), whose ids' hashes are `hashes[position]`: a
    /// stretch of a read counted while the rest is still being parsed.
    mutating func count(
        _ list: UnsafeBufferPointer<LedgerEntry>, range: Range<Int>, hashes: UnsafePointer<UInt64>
    ) {
        countInGroups(list, range: range) { hashes[$0] }
    }

    @inline(__always)
    private mutating func countInGroups(
        _ list: UnsafeBufferPointer<LedgerEntry>, range: Range<Int>, hash: (Int) -> UInt64
    ) {
        var hashes:
            (
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var touched: UInt64 = 0
        withUnsafeMutableBytes(of: &hashes) { raw in
            let group = raw.bindMemory(to: UInt64.self)
            var start = range.lowerBound
            while start < range.upperBound {
                let count = Swift.min(group.count, range.upperBound - start)
                for offset in 0..<count {
                    let value = hash(start + offset)
                    group[offset] = value
                    touched &+= index.slotValue(hash: value)
                }
                for offset in 0..<count { countOne(at: start + offset, hash: group[offset], in: list) }
                start += count
            }
        }
        if touched == 1 { index.noteTouched() }  // keeps the touching loads
    }

    /// Counts the entry at `position`, unless its id is counted already.
    @inline(__always)
    private mutating func countOne(at position: Int, hash: UInt64, in list: UnsafeBufferPointer<LedgerEntry>) {
        if let existing = index.insert(position, hash: hash, matches: { list[$0].hasSameID(as: list[position]) }) {
            sameID(at: position, as: existing, hash: hash, in: list)
            return
        }
        // The fields are read in place: a copy of the whole entry (its strings retained and released) per line was
        // a good part of the count's time.
        let kind = list[position].kind
        let amount = list[position].amount.rawValue
        let (total, overflow) = sum.rawValue.addingReportingOverflow(amount)
        // Told, and left out of every sum (only a signed entry made with the key can): `credit verify` reports it.
        if overflow {
            notices.append(.amountOutOfRange(id: list[position].id, file: file, line: line(of: position)))
            return
        }
        // (A top-up is one entry in thousands: the dictionary is looked at for those alone.)
        if kind == .topup || kind == .reversal, let reference = list[position].reference {
            guard noteReference(reference, at: position, in: list) else { return }
        }
        if kind == .opening && opening == nil { opening = positions.count }
        positions.append(UInt32(position))
        tallies.append(
            EntryTally(
                amount: amount, time: list[position].time.milliseconds,
                feature: codes.code(for: list[position].feature),
                kind: kind))
        sum = MicroCredits(total)
    }

    /// The entry at `position` has the id of the one at `existing`, which counts: a conflict when its content
    /// differs; when it is an earlier copy of the opening, it counts instead (the same amount).
    private mutating func sameID(
        at position: Int, as existing: Int, hash: UInt64, in list: UnsafeBufferPointer<LedgerEntry>
    ) {
        if !list[existing].hasSameContent(as: list[position]) {
            notices.append(.conflictingDuplicate(id: list[position].id, file: file, line: line(of: position)))
        } else if list[position].kind == .opening, let slot = opening, positions[slot] == UInt32(existing),
            LedgerState.isEarlier(list[position], than: list[existing])
        {
            positions[slot] = UInt32(position)
            tallies[slot].time = list[position].time.milliseconds
            index.replace(existing, with: position, hash: hash)
        }
    }

    /// Notes the top-up or reversal at `position` under its payment `reference`; false when it is a second top-up
    /// of a reference another already credits (reported, not counted). A top-up that refers to another entry
    /// (reinstating a reversal) is a step of the transaction with its own derived id, not a second credit.
    private mutating func noteReference(
        _ reference: String, at position: Int, in list: UnsafeBufferPointer<LedgerEntry>
    )
        -> Bool
    {
        guard list[position].kind == .topup, list[position].refersTo == nil else {
            refundSteps[reference, default: []].append(position)
            return true
        }
        if let other = references[reference] {
            notices.append(
                .receiptCountedOnce(
                    id: list[position].id, reference: reference, countedAs: list[other].id, file: file,
                    line: line(of: position)))
            return false
        }
        references[reference] = position
        return true
    }

    /// The line the entry at `position` was read from, 0 when not known.
    private func line(of position: Int) -> Int {
        firstLine == 0 ? 0 : firstLine + position - first
    }
}
