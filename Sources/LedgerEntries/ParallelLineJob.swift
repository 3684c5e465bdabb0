import Dispatch
import Platform
import Signing
import Synchronization

/// One parallel read of ``ParallelLines``: the file and the bounds of its parts, what every line is checked with,
/// where the chain stood before the first line, and the counter the parts are counted into in order.
struct ParallelLineJob {
    let fd: Int32
    let path: String
    let owner: String
    let bounds: [Int64]
    let macs: LineMACCheck?
    let counter: EntryCounter?
    /// The MAC and sequence of the entry before the first line (the chain is checked only with `macs`).
    let chainFrom: (mac: ChainField?, sequence: Int64)

    /// What putting the parts together found, besides the entries.
    private struct Assembly {
        var outcome = ParallelLines.Outcome(entries: [], hashes: [], failure: nil, unterminated: false, consumed: 0)
        var kept = 0
        var thrown: (any Error)?
        var overflowed = false
        /// Where each kept part's entries start, and its first broken link after its first entry.
        var starts: [(start: Int, count: Int, chainBreak: (index: Int, reason: String)?)] = []
    }

    /// Parses the parts, part `i` into room for `room[i]` entries (about `expected` in all); nil when some part
    /// had more lines than its room.
    func parse(room: [Int], expected: Int) throws -> ParallelLines.Outcome? {
        let count = bounds.count - 1
        var offsets: [Int] = [0]
        for index in 0..<count { offsets.append(offsets[index] + room[index]) }
        let capacity = offsets[count]
        let results = UnsafeMutablePointer<ParallelLines.Part>.allocate(capacity: count)
        results.initialize(repeating: ParallelLines.Part(), count: count)
        defer {
            results.deinitialize(count: count)
            results.deallocate()
        }
        var assembly = Assembly()
        var entries: [LedgerEntry] = []
        // Only the pages written become memory: the room left between the parts is never touched, and is closed
        // up before the arrays are handed over. Small pages, not transparent huge ones: where free memory goes back
        // to a VM's host, a huge page's first touch cost up to 40 times as much (BENCHMARKS.md, issue 38).
        let hashes = [UInt64](unsafeUninitializedCapacity: capacity) { hashBuffer, hashCount in
            entries = [LedgerEntry](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                let slots = Slots(results: results, entries: buffer.baseAddress!, hashes: hashBuffer.baseAddress!)
                run(slots, offsets: offsets, expected: expected)
                assembly = assemble(slots, offsets: offsets)
                if assembly.thrown == nil && !assembly.overflowed {
                    assembly.outcome.chainBreak = chainBreak(in: slots.entries, parts: assembly.starts)
                    assembly.outcome.marks = marks(assembly)
                }
                initialized = assembly.kept
            }
            hashCount = assembly.kept
        }
        if let thrown = assembly.thrown { throw thrown }
        if assembly.overflowed { return nil }
        assembly.outcome.entries = entries
        assembly.outcome.hashes = hashes
        return assembly.outcome
    }

    /// Parses every part on its own thread, each counted (when there is a counter) once it and the parts before it
    /// are parsed.
    private func run(_ slots: Slots, offsets: [Int], expected: Int) {
        let stage = counter.map { PartStage(counter: $0, slots: slots, offsets: offsets, expected: expected) }
        let job = self
        DispatchQueue.concurrentPerform(iterations: offsets.count - 1) { index in
            slots.results[index] = job.parsePart(
                index, into: slots.entries + offsets[index], hashes: slots.hashes + offsets[index],
                capacity: offsets[index + 1] - offsets[index])
            stage?.finished(part: index)
        }
    }

    /// Puts the parts together in order, up to the first that failed (the rest are dropped), closing any room left
    /// between them.
    private func assemble(_ slots: Slots, offsets: [Int]) -> Assembly {
        var assembly = Assembly()
        assembly.outcome.consumed = bounds[bounds.count - 1]
        var stop = false
        for index in 0..<(offsets.count - 1) {
            let part = slots.results[index]
            let at = slots.entries + offsets[index]
            if part.overflowed { assembly.overflowed = true }
            if stop || assembly.thrown != nil || part.error != nil || assembly.overflowed {
                at.deinitialize(count: part.count)
                if assembly.thrown == nil { assembly.thrown = part.error }
                continue
            }
            let kept = assembly.kept
            if kept != offsets[index] {
                (slots.entries + kept).moveInitialize(from: at, count: part.count)
                (slots.hashes + kept).moveInitialize(from: slots.hashes + offsets[index], count: part.count)
            }
            stop = take(part, at: kept, into: &assembly.outcome)
            assembly.starts.append((kept, part.count, part.chainBreak))
            assembly.kept += part.count
        }
        if assembly.thrown != nil || assembly.overflowed {
            slots.entries.deinitialize(count: assembly.kept)
            assembly.kept = 0
        }
        return assembly
    }

    /// Where each part after the first began and the lines before it, when every line read is a kept entry (a
    /// part whose room was left partly empty is closed up, so a part's place is where its first entry ended up).
    private func marks(_ assembly: Assembly) -> [LineMark] {
        let outcome = assembly.outcome
        guard outcome.failure == nil, outcome.changed == nil, assembly.starts.count == bounds.count - 1 else {
            return []
        }
        var marks: [LineMark] = []
        for part in 1..<assembly.starts.count where assembly.starts[part].start > (marks.last?.line ?? 0) {
            marks.append(LineMark(offset: bounds[part], line: assembly.starts[part].start))
        }
        return marks
    }

    /// Takes in what `part` (its entries from `kept` on) found; true when it stopped the read.
    private func take(_ part: ParallelLines.Part, at kept: Int, into outcome: inout ParallelLines.Outcome) -> Bool {
        if outcome.firstUnsigned == nil, let unsigned = part.firstUnsigned { outcome.firstUnsigned = kept + unsigned }
        if part.count > 0 { outcome.lastSequence = Swift.max(outcome.lastSequence ?? 0, part.maxSequence) }
        if let changed = part.changed {
            outcome.changed = (kept + changed.index, changed.reason)
            return true
        }
        if let failure = part.failure {
            outcome.failure = (kept + failure.index, failure.reason, failure.lineEnd)
            outcome.consumed = part.consumed
            return true
        }
        if part.unterminated {
            outcome.unterminated = true
            outcome.consumed = part.consumed
        }
        return false
    }

    /// The first entry, in file order, that does not chain on from the one before it: each part's first entry
    /// against the last of the part before (or the chain's start), then the first broken link its thread found.
    private func chainBreak(
        in entries: UnsafeMutablePointer<LedgerEntry>,
        parts: [(start: Int, count: Int, chainBreak: (index: Int, reason: String)?)]
    ) -> (index: Int, reason: String)? {
        guard macs != nil else { return nil }
        for part in parts where part.count > 0 {
            let start = part.start
            let previous = start == 0 ? chainFrom.mac : entries[start - 1].macField
            let sequence = start == 0 ? chainFrom.sequence : entries[start - 1].sequence
            if let reason = DeviceFile.chainProblem(entries[start], after: previous, sequence: sequence) {
                return (start, reason)
            }
            if let broken = part.chainBreak { return (start + broken.index, broken.reason) }
        }
        return nil
    }

    /// Parses part `index` into `target` (room for `capacity` entries) and the ids' hashes into `hashes`: each
    /// signed line's MAC checked, and with MACs, each entry's link to the one before it in the part.
    fileprivate func parsePart(
        _ index: Int, into target: UnsafeMutablePointer<LedgerEntry>, hashes: UnsafeMutablePointer<UInt64>,
        capacity: Int
    ) -> ParallelLines.Part {
        var part = ParallelLines.Part(consumed: bounds[index])
        // A String of its own per part: every entry holds the device, and threads retaining one shared instance
        // would pass its reference count's cache line between the cores on every line.
        var context = LineReadContext(device: String(decoding: Array(owner.utf8), as: UTF8.self))
        let hmac: HMACSHA256?
        do {
            hmac = try macs?.makeContext()
        } catch {
            part.error = error
            return part
        }
        var links = LinkCheck(checks: hmac != nil)
        do {
            // A quarter of a megabyte at a time: the bytes read are still in the core's cache when the line is
            // parsed and its MAC made, and the parts' buffers are little new memory.
            let outcome = try LineChunks.read(
                fd: fd, path: path, from: bounds[index], to: bounds[index + 1], chunkSize: 256 << 10
            ) { line, after in
                do throws(EntryParseError) {
                    guard part.count < capacity else {
                        part.overflowed = true
                        return false
                    }
                    // Made in its place (no copy of the entry), and taken out again if its MAC does not hold.
                    let slot = target + part.count
                    let idHash = try EntryCodec.parse(line, context: &context, into: slot)
                    // Lines without a MAC are judged once the parts are together (is the file signed?).
                    if let hmac, let problem = LinkCheck.macProblem(line, of: slot, context: hmac) {
                        slot.deinitialize(count: 1)
                        part.changed = (part.count, problem)
                        return false
                    }
                    links.note(slot, at: part.count, into: &part)
                    hashes[part.count] = idHash
                    part.count += 1
                    return true
                } catch {
                    part.failure = (part.count, error.reason, after)
                    return false
                }
            }
            part.consumed = outcome.consumed
            part.unterminated = outcome.unterminated
        } catch {
            part.error = error
        }
        return part
    }
}

/// What a part's thread keeps of the entry before to check each link of the chain, and what it notes of every
/// entry (whether it carries a MAC, the highest sequence).
private struct LinkCheck {
    let checks: Bool
    /// The MAC of the entry before when it is a digest (every line the ledger writes), and when it is not.
    var previousDigest: ChainDigest?
    var previousOther: ChainField?
    var previousSequence: Int64 = 0

    var previousMAC: ChainField? { previousDigest.map { .digest($0) } ?? previousOther }
    /// Whether a broken link is noted already (a flag: asking whether the part's optional (index, reason) is nil
    /// copied and destroyed it through the runtime on every line).
    var broken = false
    var unsigned = false

    /// Why the line of the entry at `entry` does not verify, or nil when it does or carries no MAC. The MAC is read
    /// as its digest when it is one (every line the ledger writes), not made into an optional field first.
    @inline(__always)
    static func macProblem(
        _ line: UnsafeBufferPointer<UInt8>, of entry: UnsafePointer<LedgerEntry>, context: HMACSHA256
    ) -> String? {
        if let digest = entry.pointee.macDigestHeld {
            return LineMACCheck.problem(line, digest: digest, context: context)
        }
        guard let mac = entry.pointee.macField else { return nil }
        return LineMACCheck.problem(line, mac: mac, signed: true, context: context)
    }

    @inline(__always)
    mutating func note(_ entry: UnsafePointer<LedgerEntry>, at index: Int, into part: inout ParallelLines.Part) {
        let sequence = entry.pointee.sequence
        // The usual link, digests both sides: compared as digests (no optional fields made and destroyed).
        if checks, index > 0, let previous = previousDigest, let mac = entry.pointee.macDigestHeld,
            previousSequence < Int64.max, sequence == previousSequence + 1, entry.pointee.prevDigestHeld == previous
        {
            part.maxSequence = Swift.max(part.maxSequence, sequence)
            previousDigest = mac
            previousSequence = sequence
            return
        }
        // Field by field through the pointer: the entry itself is not copied (its strings not retained).
        let mac = entry.pointee.macField
        if mac == nil && !unsigned {
            part.firstUnsigned = index
            unsigned = true
        }
        part.maxSequence = Swift.max(part.maxSequence, sequence)
        guard checks else { return }
        if index > 0 && !broken,
            let reason = DeviceFile.chainProblem(
                sequence: sequence, prev: entry.pointee.prevField, after: previousMAC, sequence: previousSequence)
        {
            part.chainBreak = (index, reason)
            broken = true
        }
        if case .digest(let digest)? = mac {
            previousDigest = digest
            previousOther = nil
        } else {
            previousDigest = nil
            previousOther = mac
        }
        previousSequence = sequence
    }
}

/// Where the parsing threads write. `@unchecked Sendable`: each thread writes only its own part's result slot
/// and its own stretch of the entries and hashes, and a stretch is read (counted) only after its thread is done with
/// it, under ``PartStage``'s lock, or after `concurrentPerform` has returned.
private struct Slots: @unchecked Sendable {
    let results: UnsafeMutablePointer<ParallelLines.Part>
    let entries: UnsafeMutablePointer<LedgerEntry>
    let hashes: UnsafeMutablePointer<UInt64>
}

/// Hands the parsed parts to the counter in file order, as soon as a part and every one before it are parsed: the
/// thread that finished a part counts it (and any after it that are ready) unless another thread is counting. A
/// part that did not keep every line it was given (a bad line, room left over) stops the counting there; the
/// reader counts the rest once the parts are put together.
///
/// `@unchecked Sendable`: its progress is behind a lock, and only one thread counts at a time.
private final class PartStage: @unchecked Sendable {
    private let counter: EntryCounter
    private let slots: Slots
    private let offsets: [Int]
    private let progress: Mutex<Progress>
    /// About how many entries will be counted: room for them is made by the first count, beside the parsing
    /// (the id index's table, zeroed, was several milliseconds on one core before any thread could start).
    private let expected: Int
    private var reserved = false

    private struct Progress {
        var done: [Bool]
        var next = 0
        var busy = false
        var stopped = false
    }

    init(counter: EntryCounter, slots: Slots, offsets: [Int], expected: Int) {
        self.counter = counter
        self.expected = expected
        self.slots = slots
        self.offsets = offsets
        progress = Mutex(Progress(done: [Bool](repeating: false, count: offsets.count - 1)))
    }

    /// Part `index` is parsed: counts it, and the parts after it that are, when every part before it is counted
    /// and no other thread is counting.
    func finished(part index: Int) {
        let claimed = progress.withLock { progress in
            progress.done[index] = true
            guard !progress.busy else { return false }
            progress.busy = true
            return true
        }
        guard claimed else { return }
        while let next = nextReady() {
            let part = slots.results[next]
            let first = offsets[next]
            let isLast = next == offsets.count - 2
            guard part.isWhole, isLast || part.count == offsets[next + 1] - first else {
                progress.withLock {
                    $0.stopped = true
                    $0.busy = false
                }
                return
            }
            if !reserved {
                counter.reserve(expected)
                reserved = true
            }
            counter.count(
                UnsafeBufferPointer(start: slots.entries, count: first + part.count),
                range: first..<(first + part.count), hashes: slots.hashes)
            progress.withLock { $0.next += 1 }
        }
    }

    /// The next part to count when it is parsed; nil, letting go of the counting, when it is not yet.
    private func nextReady() -> Int? {
        progress.withLock { progress in
            if !progress.stopped, progress.next < progress.done.count, progress.done[progress.next] {
                return progress.next
            }
            progress.busy = false
            return nil
        }
    }
}
