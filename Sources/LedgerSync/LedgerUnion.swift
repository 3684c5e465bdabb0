import Dispatch
import LedgerEntries

/// The union of ledgers in memory, the pure part of a merge: which incoming entries join, and what is wrong.
///
/// Entries are taken one device at a time, in sequence order: an entry already here at the same (device,
/// sequence) is already present; a different one there is a fork; a missing sequence is a gap; an id already
/// here with other content is a conflict. Each of those three is reported, and that device's later entries do not
/// join. The balance is the sum over distinct ids, whatever the order. ``AccountSync/merge(files:)`` runs every merge
/// through this type and then writes what joined; it touches no file itself.
///
/// Entries are not copied: the union keeps the arrays it was given and refers to their elements by position.
public struct LedgerUnion {
    /// The sum of the amounts over distinct ids (an overflowing sum stays put, as a ledger's balance does).
    public private(set) var balance: MicroCredits = .zero
    /// What joined, what was already here, and what is wrong.
    public private(set) var report = MergeReport()

    /// The entries given first; then, in the order they joined, the incoming ones by (array, position).
    private let existing: [LedgerEntry]
    private var sources: [[LedgerEntry]] = []
    private var joined: [(source: Int32, index: Int32)] = []
    private var index = EntryIDIndex()
    private var counted: [UInt32] = []
    private var devices: [String: DeviceSequences] = [:]
    /// The position of the top-up that counts for each payment reference (top-ups only: a few).
    private var references: [String: Int] = [:]
    /// Where in `counted` the opening that counts is (the earliest copy).
    private var openingSlot: Int?

    /// One device's entries by sequence: a dense table from 1 (sequences are contiguous in a good file), and a
    /// dictionary for any far out of line.
    private struct DeviceSequences {
        var dense: [UInt32] = []  // position + 1, 0 for none
        var sparse: [Int64: UInt32] = [:]
        var last: Int64 = 0

        func position(of sequence: Int64) -> Int? {
            if sequence >= 1 && sequence <= Int64(dense.count) {
                let value = dense[Int(sequence - 1)]
                return value == 0 ? nil : Int(value) - 1
            }
            return sparse[sequence].map(Int.init)
        }

        mutating func record(_ position: Int, at sequence: Int64) {
            last = Swift.max(last, sequence)
            if sequence >= 1 && sequence <= Int64(dense.count) + 1024 {
                while Int64(dense.count) < sequence { dense.append(0) }
                dense[Int(sequence - 1)] = UInt32(position + 1)
            } else {
                sparse[sequence] = UInt32(position)
            }
        }
    }

    /// Starts from `existing` (a ledger's entries, as read).
    public init(existing: [LedgerEntry]) {
        self.init(existing: existing, hashes: nil)
    }

    /// Starts from `existing`, whose ids' hashes are `hashes` when given (made beforehand, on another thread), with
    /// room in the index for `room` ids (so that it is not rebuilt, every id placed again, as entries join).
    init(existing: [LedgerEntry], hashes given: [UInt64]?, room: Int = 0) {
        self.existing = existing
        var sum = balance
        var index = EntryIDIndex(capacity: Swift.max(existing.count, room))
        var counted: [UInt32] = []
        counted.reserveCapacity(existing.count)
        var devices: [String: DeviceSequences] = [:]
        // Every id's hash first (independent reads, which the processor overlaps), then the inserts, each reading
        // ahead the slot of the one eight later, for the same reason.
        let hashes = given ?? Self.hashes(of: existing)
        var touched: UInt64 = 0
        existing.withUnsafeBufferPointer { list in
            var device = ""
            var sequences = DeviceSequences()
            for position in list.indices {
                if position + 8 < hashes.count { touched &+= index.slotValue(hash: hashes[position + 8]) }
                if list[position].device != device {
                    if !device.isEmpty { devices[device] = sequences }
                    device = list[position].device
                    sequences = devices[device] ?? DeviceSequences()
                }
                sequences.record(position, at: list[position].sequence)
                if index.insert(position, hash: hashes[position], matches: { list[$0].hasSameID(as: list[position]) })
                    == nil
                {
                    if list[position].kind == .topup, let reference = list[position].reference,
                        list[position].refersTo == nil
                    {
                        guard references[reference] == nil else { continue }
                        references[reference] = position
                    }
                    if list[position].kind == .opening && openingSlot == nil { openingSlot = counted.count }
                    counted.append(UInt32(position))
                    let (total, overflow) = sum.rawValue.addingReportingOverflow(list[position].amount.rawValue)
                    if !overflow { sum = MicroCredits(total) }
                }
            }
            if !device.isEmpty { devices[device] = sequences }
        }
        if touched == 1 { index.noteTouched() }
        self.index = index
        self.counted = counted
        self.devices = devices
        balance = sum
    }

    /// Whether `entry`, new here, credits a store transaction a top-up here already credits (then it does not
    /// count, and the report says so); records it as the one that counts otherwise.
    private mutating func isSecondCredit(_ entry: LedgerEntry, at position: Int, place: () -> String) -> Bool {
        guard entry.kind == .topup, let reference = entry.reference, entry.refersTo == nil else { return false }
        if let other = references[reference] {
            report.receiptsCountedOnce.append(
                "\(place()): top-up \(entry.id) credits store transaction \(reference), which top-up "
                    + "\(self.entry(at: other).id) already credits; it counts once")
            return true
        }
        references[reference] = position
        return false
    }

    /// After an entry with the same id and content as the one at `existing` joined at `position`: an earlier copy
    /// of the opening is the one that counts (the account's first device's, which the history starts with).
    private mutating func preferEarlierOpening(_ entry: LedgerEntry, at position: Int, over existing: Int, hash: UInt64)
    {
        guard entry.kind == .opening, let slot = openingSlot, counted[slot] == UInt32(existing),
            LedgerState.isEarlier(entry, than: self.entry(at: existing))
        else { return }
        counted[slot] = UInt32(position)
        index.replace(existing, with: position, hash: hash)
    }

    /// The union of `first` and `second` (``add(device:incoming:lines:source:)`` for each device of `second`, in
    /// the order they first appear).
    public static func union(_ first: [LedgerEntry], _ second: [LedgerEntry], source: String = "incoming")
        -> LedgerUnion
    {
        if let device = second.first?.device, second.allSatisfy({ $0.device == device }) {
            // One device (the usual case): no grouping to do; the ids of both sides hashed at once, on two threads
            // when there are many.
            let (firstHashes, secondHashes) = hashes(of: first, and: second)
            var union = LedgerUnion(existing: first, hashes: firstHashes, room: first.count + second.count)
            _ = union.add(
                device: device, incoming: second, lines: Array(1...second.count), source: source,
                hashes: secondHashes)
            return union
        }
        var union = LedgerUnion(existing: first)
        var groups: [String: [Int]] = [:]
        var order: [String] = []
        var device = ""
        var group: [Int] = []
        for position in second.indices {
            if second[position].device != device {
                if !device.isEmpty { groups[device, default: []].append(contentsOf: group) }
                device = second[position].device
                group = []
                if groups[device] == nil {
                    groups[device] = []
                    order.append(device)
                }
            }
            group.append(position)
        }
        if !device.isEmpty { groups[device, default: []].append(contentsOf: group) }
        for device in order {
            let positions = groups[device]!
            let incoming = positions.count == second.count ? second : positions.map { second[$0] }
            _ = union.add(device: device, incoming: incoming, lines: positions.map { $0 + 1 }, source: source)
        }
        return union
    }

    /// How many entries the union holds (every one given first, and every one that joined).
    public var count: Int { existing.count + joined.count }

    /// The entry at `position` (see ``entries``).
    public func entry(at position: Int) -> LedgerEntry {
        if position < existing.count { return existing[position] }
        let reference = joined[position - existing.count]
        return sources[Int(reference.source)][Int(reference.index)]
    }

    /// Every entry: those given first, then each one that joined.
    public var entries: [LedgerEntry] { (0..<count).map(entry(at:)) }

    /// Adds `device`'s incoming entries (read from `source`, `lines[i]` being the line of `incoming[i]`), in
    /// sequence order, up to the first fork, gap or conflict. Returns the positions in `incoming` of those that
    /// joined, in the order they joined.
    public mutating func add(device: String, incoming: [LedgerEntry], lines: [Int], source: String) -> [Int] {
        add(device: device, incoming: incoming, lines: lines, source: source, hashes: nil)
    }

    /// ``add(device:incoming:lines:source:)``, with the incoming ids' hashes when they were made beforehand.
    mutating func add(device: String, incoming: [LedgerEntry], lines: [Int], source: String, hashes given: [UInt64]?)
        -> [Int]
    {
        var order = Array(incoming.indices)
        if !incoming.isEmpty && zip(incoming, incoming.dropFirst()).contains(where: { $0.sequence > $1.sequence }) {
            order.sort { incoming[$0].sequence < incoming[$1].sequence }
        }
        let sourceNumber = Int32(sources.count)
        sources.append(incoming)
        var sequences = devices[device] ?? DeviceSequences()
        devices[device] = nil  // held here while it changes, so it is not copied
        var joinedHere: [Int] = []
        joinedHere.reserveCapacity(incoming.count)
        joined.reserveCapacity(joined.count + incoming.count)
        let hashes = given ?? Self.hashes(of: incoming)
        var touched: UInt64 = 0
        incoming.withUnsafeBufferPointer { list in
            for (step, item) in order.enumerated() {
                if step + 8 < order.count { touched &+= index.slotValue(hash: hashes[order[step + 8]]) }
                let sequence = list[item].sequence
                let place = { "\(source) line \(lines[item])" }
                if sequence <= sequences.last {
                    if let here = sequences.position(of: sequence), entry(at: here) == list[item] {
                        report.alreadyPresent += 1
                        continue
                    }
                    report.problems.append(
                        "fork: \(place()) is \(device) #\(sequence), but a different entry is already "
                            + "recorded at that place; \(device)'s later entries were not merged")
                    break
                }
                guard sequence == sequences.last + 1 else {
                    report.problems.append(
                        "gap: \(place()) is \(device) #\(sequence), but #\(sequences.last + 1) is missing; "
                            + "the copy is incomplete, and \(device)'s later entries were not merged")
                    break
                }
                // The entry that counts for this id: one here before, or one that joined earlier in this batch.
                let hash = hashes[item]
                let existingPosition = index.find(hash: hash) { entry(at: $0).hasSameID(as: list[item]) }
                if let existingPosition {
                    let existing = entry(at: existingPosition)
                    if !existing.hasSameContent(as: list[item]) {
                        report.problems.append(
                            "conflict: \(place()) has id \(list[item].id) with other content (recorded: "
                                + "\(existing.contentSummary); incoming: \(list[item].contentSummary)); \(device)'s "
                                + "later entries were not merged")
                        break
                    }
                }
                let position = count
                joined.append((sourceNumber, Int32(item)))
                if let existingPosition {
                    preferEarlierOpening(list[item], at: position, over: existingPosition, hash: hash)
                } else if isSecondCredit(list[item], at: position, place: place) {
                    _ = index.insert(position, hash: hash) { _ in false }
                } else {
                    // New here: it counts (nothing with this id is there: the insert compares nothing).
                    _ = index.insert(position, hash: hash) { _ in false }
                    if list[item].kind == .opening && openingSlot == nil { openingSlot = counted.count }
                    counted.append(UInt32(position))
                    let (total, overflow) = balance.rawValue.addingReportingOverflow(list[item].amount.rawValue)
                    if !overflow { balance = MicroCredits(total) }
                }
                sequences.record(position, at: sequence)
                joinedHere.append(item)
            }
        }
        if touched == 1 { index.noteTouched() }
        devices[device] = sequences
        if !joinedHere.isEmpty { report.added[device, default: 0] += joinedHere.count }
        return joinedHere
    }

    /// The positions (see ``entry(at:)``) of the distinct entries (one per id), in display order: the opening
    /// that counts first, then time, then device, then sequence (see `DisplayOrder`).
    public var displayOrder: [Int] {
        // Fields read in place, as the sort reads a million of them.
        DisplayOrder.sorted(
            counted,
            key: { position in
                if position < existing.count {
                    return DisplayOrder.Facts(
                        time: existing[position].time.milliseconds, device: existing[position].device,
                        sequence: existing[position].sequence, isOpening: existing[position].kind == .opening)
                }
                let reference = joined[position - existing.count]
                let source = Int(reference.source)
                let index = Int(reference.index)
                return DisplayOrder.Facts(
                    time: sources[source][index].time.milliseconds, device: sources[source][index].device,
                    sequence: sources[source][index].sequence, isOpening: sources[source][index].kind == .opening)
            },
            money: { position in
                // Read in place, not by copying the entry out (its strings retained and released each time).
                if position < existing.count {
                    return (existing[position].amount.rawValue, existing[position].balanceAfter.rawValue)
                }
                let reference = joined[position - existing.count]
                let source = Int(reference.source)
                let index = Int(reference.index)
                return (sources[source][index].amount.rawValue, sources[source][index].balanceAfter.rawValue)
            })
    }

    /// The distinct entries (one per id), in display order (the opening first; see `DisplayOrder`).
    public var distinctEntries: [LedgerEntry] { displayOrder.map(entry(at:)) }

    /// How many distinct ids there are.
    public var distinctCount: Int { counted.count }

    /// The ids' hashes (``EntryIDIndex/hash(_:)``) of `entries`.
    static func hashes(of entries: [LedgerEntry]) -> [UInt64] {
        entries.withUnsafeBufferPointer { list in list.map { $0.idHash } }
    }

    /// The ids' hashes of `first` and of `second`, on two threads when both are large.
    static func hashes(of first: [LedgerEntry], and second: [LedgerEntry]) -> ([UInt64], [UInt64]) {
        guard first.count >= 50_000 && second.count >= 50_000 else { return (hashes(of: first), hashes(of: second)) }
        var a = [UInt64](repeating: 0, count: first.count)
        var b = [UInt64](repeating: 0, count: second.count)
        a.withUnsafeMutableBufferPointer { a in
            b.withUnsafeMutableBufferPointer { b in
                let targets = HashTargets(first: a, second: b)
                DispatchQueue.concurrentPerform(iterations: 2) { side in
                    let (entries, target) = side == 0 ? (first, targets.first) : (second, targets.second)
                    entries.withUnsafeBufferPointer { list in
                        for index in list.indices { target[index] = list[index].idHash }
                    }
                }
            }
        }
        return (a, b)
    }
}

/// Where the two hashing threads write. `@unchecked Sendable`: each thread writes only its own buffer, read after
/// `concurrentPerform` has returned.
private struct HashTargets: @unchecked Sendable {
    let first: UnsafeMutableBufferPointer<UInt64>
    let second: UnsafeMutableBufferPointer<UInt64>
}
