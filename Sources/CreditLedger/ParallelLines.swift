import Dispatch
import Platform
import Signing

/// Parses a large stretch of a ledger file on several threads: the stretch is cut at line boundaries, each part
/// read a few megabytes at a time and parsed by its own thread, and the parts are put back together in order.
/// The result is what reading the lines one after the other gives, the first bad line included.
enum ParallelLines {
    /// What a parallel read found.
    struct Outcome {
        /// The entries read, in file order, up to the first bad line.
        var entries: [LedgerEntry]
        /// Each entry's id hash (``EntryIDIndex/hash(_:)``), made while the id was fresh in the cache.
        var hashes: [UInt64]
        /// The first line that would not parse: its index among the lines read, why, and the offset just past it.
        var failure: (index: Int, reason: String, lineEnd: Int64)?
        /// Whether bytes without a final newline are left at the end.
        var unterminated: Bool
        /// Where the good lines end.
        var consumed: Int64
        /// The first line, before any bad one, whose MAC does not verify: its index among the lines read and why.
        var changed: (index: Int, reason: String)? = nil
    }

    /// What one part found.
    fileprivate struct Part {
        var count = 0
        var failure: (index: Int, reason: String, lineEnd: Int64)?
        var consumed: Int64 = 0
        var unterminated = false
        var error: (any Error)?
        /// The first of its lines whose MAC does not verify (the part stops there).
        var changed: (index: Int, reason: String)?
        /// It had more lines than its room (the file changed since they were counted).
        var overflowed = false
    }

    /// A valid line is at least this long (the shortest: every required key, one-letter values, `topup`, 121
    /// bytes and the newline), so a part of `n` bytes holds at most `n / 100` entries: room for them all is known
    /// before reading, and each thread writes straight into its own stretch of the result.
    private static let shortestLine: Int64 = 100

    /// The smallest part worth a thread of its own. (Tests lower it to run small files through this path; any
    /// value gives the same entries.)
    nonisolated(unsafe) static var minimumPartBytes: Int64 = 8 << 20

    /// How many parts to cut `byteCount` bytes into: one per processor (at least two, at most four), none
    /// smaller than ``minimumPartBytes``.
    static func partCount(for byteCount: Int64) -> Int {
        let processors = Swift.max(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        return Swift.max(1, Swift.min(processors, 4, Int(byteCount / minimumPartBytes)))
    }

    /// Parses the lines between `start` and `end`, in `parts` parts, device strings shared through `owner`.
    /// With `macs`, each signed line is checked on its thread as it is parsed (see ``Outcome/changed``).
    static func parse(
        fd: Int32, path: String, from start: Int64, to end: Int64, owner: String, parts: Int,
        macs: LineMACCheck? = nil
    ) throws -> Outcome {
        var bounds: [Int64] = [start]
        for k in 1..<parts {
            let target = start + (end - start) * Int64(k) / Int64(parts)
            guard let boundary = try lineStart(after: target, fd: fd, path: path, end: end), boundary > bounds.last!,
                boundary < end
            else { continue }
            bounds.append(boundary)
        }
        bounds.append(end)
        // Each part but the last gets room for exactly its lines (every entry is one line), so the parts are parsed
        // where they end up, end to end, and none has to be moved up to close a gap (a copy of half the entries
        // into new memory, on one thread, was a tenth of a cold load). Should the file's lines change between the
        // count and the parse (they do not, under the ledger's lock), the room is made from the sizes instead.
        if let counted = try lineCounts(fd: fd, path: path, bounds: bounds),
            let outcome = try parse(fd: fd, path: path, bounds: bounds, owner: owner, room: counted, macs: macs)
        {
            return outcome
        }
        let sized = (0..<(bounds.count - 1)).map { Int((bounds[$0 + 1] - bounds[$0]) / shortestLine) + 1 }
        guard let outcome = try parse(fd: fd, path: path, bounds: bounds, owner: owner, room: sized, macs: macs) else {
            preconditionFailure("a ledger line shorter than any valid one was accepted")
        }
        return outcome
    }

    /// The newlines in each part but the last (counted on several threads), and room for the last from its size.
    private static func lineCounts(fd: Int32, path: String, bounds: [Int64]) throws -> [Int]? {
        let count = bounds.count - 1
        let last = Int((bounds[count] - bounds[count - 1]) / shortestLine) + 1
        guard count > 1 else { return [last] }
        // Each counted part in as many slices as there are parts, so every thread has some of the counting.
        let slices = count
        let pieces = (count - 1) * slices
        let found = UnsafeMutablePointer<Int>.allocate(capacity: pieces)
        found.initialize(repeating: -1, count: pieces)
        defer { found.deallocate() }
        let counts = Counts(found: found)
        DispatchQueue.concurrentPerform(iterations: pieces) { piece in
            let part = piece / slices
            let slice = Int64(piece % slices)
            let length = bounds[part + 1] - bounds[part]
            let from = bounds[part] + length * slice / Int64(slices)
            let to = bounds[part] + length * (slice + 1) / Int64(slices)
            counts.found[piece] = LineChunks.countNewlines(fd: fd, from: from, to: to) ?? -1
        }
        var room: [Int] = []
        for part in 0..<(count - 1) {
            var total = 0
            for slice in 0..<slices {
                let value = found[part * slices + slice]
                guard value >= 0 else { throw LedgerError.io(path: path, operation: "read", errno: errno) }
                total += value
            }
            room.append(total)
        }
        return room + [last]
    }

    /// Parses the parts between `bounds`, part `i` into room for `room[i]` entries; nil when some part had more
    /// lines than its room.
    private static func parse(
        fd: Int32, path: String, bounds: [Int64], owner: String, room: [Int], macs: LineMACCheck?
    ) throws -> Outcome? {
        let end = bounds[bounds.count - 1]
        let count = bounds.count - 1
        var offsets: [Int] = [0]
        for index in 0..<count {
            offsets.append(offsets[index] + room[index])
        }
        let capacity = offsets[count]
        let results = UnsafeMutablePointer<Part>.allocate(capacity: count)
        results.initialize(repeating: Part(), count: count)
        defer {
            results.deinitialize(count: count)
            results.deallocate()
        }
        var hashes = [UInt64](repeating: 0, count: capacity)
        var outcome = Outcome(entries: [], hashes: [], failure: nil, unterminated: false, consumed: end)
        var thrown: (any Error)?
        var overflowed = false
        // Only the pages written become memory: the room left between the parts is never touched, and is closed
        // up before the array is handed over.
        let entries = [LedgerEntry](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
            hashes.withUnsafeMutableBufferPointer { hashBuffer in
                let slots = Slots(results: results, entries: buffer.baseAddress!, hashes: hashBuffer.baseAddress!)
                let cuts = bounds
                let starts = offsets
                DispatchQueue.concurrentPerform(iterations: count) { index in
                    slots.results[index] = parsePart(
                        fd: fd, path: path, from: cuts[index], to: cuts[index + 1], owner: owner,
                        into: slots.entries + starts[index], hashes: slots.hashes + starts[index],
                        capacity: starts[index + 1] - starts[index], macs: macs)
                }
                // The parts in order, up to the first that failed; the rest are dropped.
                var kept = 0
                var stop = false
                for index in 0..<count {
                    let part = results[index]
                    let at = buffer.baseAddress! + offsets[index]
                    if part.overflowed { overflowed = true }
                    if stop || thrown != nil || part.error != nil || overflowed {
                        at.deinitialize(count: part.count)
                        if thrown == nil { thrown = part.error }
                        continue
                    }
                    if kept != offsets[index] {
                        (buffer.baseAddress! + kept).moveInitialize(from: at, count: part.count)
                        (hashBuffer.baseAddress! + kept).moveInitialize(
                            from: hashBuffer.baseAddress! + offsets[index], count: part.count)
                    }
                    if let changed = part.changed {
                        outcome.changed = (kept + changed.index, changed.reason)
                        stop = true
                    } else if let failure = part.failure {
                        outcome.failure = (kept + failure.index, failure.reason, failure.lineEnd)
                        outcome.consumed = part.consumed
                        stop = true
                    } else if part.unterminated {
                        outcome.unterminated = true
                        outcome.consumed = part.consumed
                    }
                    kept += part.count
                }
                if thrown != nil || overflowed {
                    buffer.baseAddress!.deinitialize(count: kept)
                    kept = 0
                }
                initialized = kept
            }
        }
        if let thrown { throw thrown }
        if overflowed { return nil }
        hashes.removeSubrange(entries.count...)
        outcome.entries = entries
        outcome.hashes = hashes
        return outcome
    }

    private static func parsePart(
        fd: Int32, path: String, from start: Int64, to end: Int64, owner: String,
        into target: UnsafeMutablePointer<LedgerEntry>, hashes: UnsafeMutablePointer<UInt64>, capacity: Int,
        macs: LineMACCheck?
    ) -> Part {
        var part = Part(consumed: start)
        var context = LineReadContext(device: owner)
        let hmac: HMACSHA256?
        do {
            hmac = try macs?.makeContext()
        } catch {
            part.error = error
            return part
        }
        var count = 0
        var failure: (index: Int, reason: String, lineEnd: Int64)?
        do {
            let outcome = try LineChunks.read(fd: fd, path: path, from: start, to: end) { line, after in
                do throws(EntryParseError) {
                    guard count < capacity else {
                        part.overflowed = true
                        return false
                    }
                    let entry = try EntryCodec.parse(line, context: &context)
                    // Lines without a MAC are judged once the parts are together (is the file signed?).
                    if let hmac, entry.macField != nil,
                        let problem = LineMACCheck.problem(line, entry: entry, signed: true, context: hmac)
                    {
                        part.changed = (count, problem)
                        return false
                    }
                    hashes[count] = EntryIDIndex.hash(entry.id)
                    (target + count).initialize(to: entry)
                    count += 1
                    return true
                } catch {
                    failure = (count, error.reason, after)
                    return false
                }
            }
            part.consumed = outcome.consumed
            part.unterminated = outcome.unterminated
        } catch {
            part.error = error
        }
        part.count = count
        part.failure = failure
        return part
    }

    /// The offset just past the first newline at or after `offset`, or nil when there is none before `end`.
    private static func lineStart(after offset: Int64, fd: Int32, path: String, end: Int64) throws -> Int64? {
        var window = [UInt8](repeating: 0, count: 65536)
        var position = offset
        while position < end {
            let wanted = Int(Swift.min(Int64(window.count), end - position))
            let read = window.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, wanted, off_t(position)) }
            if read < 0 {
                if errno == EINTR { continue }
                throw LedgerError.io(path: path, operation: "read", errno: errno)
            }
            if read == 0 { return nil }
            if let newline = window[0..<read].firstIndex(of: 0x0A) { return position + Int64(newline) + 1 }
            position += Int64(read)
        }
        return nil
    }
}

/// Where the parsing threads write. `@unchecked Sendable`: each thread writes only its own part's result slot
/// and its own stretch of the entries and hashes, and nothing is read until `concurrentPerform` has returned
/// (which waits for every thread).
private struct Slots: @unchecked Sendable {
    let results: UnsafeMutablePointer<ParallelLines.Part>
    let entries: UnsafeMutablePointer<LedgerEntry>
    let hashes: UnsafeMutablePointer<UInt64>
}

/// Where the counting threads write. `@unchecked Sendable`: each thread writes only its own slot, and nothing is
/// read until `concurrentPerform` has returned.
private struct Counts: @unchecked Sendable {
    let found: UnsafeMutablePointer<Int>
}

/// Asks for transparent huge pages over most of `buffer` (Linux): a large array filled once then costs a few
/// hundred page faults rather than tens of thousands. Only advice; nothing changes elsewhere.
func adviseHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
    #if os(Linux)
        guard let base = buffer.baseAddress, buffer.count >= 4 << 20 else { return }
        let huge = 2 << 20
        let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
        let end = (Int(bitPattern: base) + buffer.count) & ~(huge - 1)
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(aligned, end - start, 14)  // MADV_HUGEPAGE
    #endif
}
