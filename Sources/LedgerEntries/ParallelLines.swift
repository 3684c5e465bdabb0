import Dispatch
import Platform
import Signing

/// Parses a large stretch of a ledger file on several threads: the stretch is cut at line boundaries, each part
/// read a few megabytes at a time and parsed by its own thread (its MACs and its chain checked there too), and the
/// parts are put back together in order. The result is what reading the lines one after the other gives, the first
/// bad line included. With an ``EntryCounter``, each part is counted as soon as it and every part before it are
/// parsed, on whichever thread finished it, while the other threads go on parsing.
package enum ParallelLines {
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
        /// The first entry read without a MAC.
        var firstUnsigned: Int? = nil
        /// With MACs checked: the first entry that does not chain on from the one before it (or from the chain's
        /// start given), and why (``DeviceFile/chainProblem(_:after:sequence:)``).
        var chainBreak: (index: Int, reason: String)? = nil
        /// The highest sequence read.
        var lastSequence: Int64? = nil
        /// Where each part after the first began, with the lines before it, when every line read is an entry.
        var marks: [LineMark] = []
    }

    /// What one part found.
    struct Part {
        var count = 0
        var failure: (index: Int, reason: String, lineEnd: Int64)?
        var consumed: Int64 = 0
        var unterminated = false
        var error: (any Error)?
        /// The first of its lines whose MAC does not verify (the part stops there).
        var changed: (index: Int, reason: String)?
        /// It had more lines than its room (the file changed since they were counted).
        var overflowed = false
        /// Its first entry without a MAC.
        var firstUnsigned: Int?
        /// Its first entry, after its first, that does not chain on from the one before it (MACs checked only).
        var chainBreak: (index: Int, reason: String)?
        var maxSequence: Int64 = 0

        /// Whether every line it was given is an entry, kept (nothing stopped it).
        var isWhole: Bool { failure == nil && changed == nil && error == nil && !overflowed }
    }

    /// A valid line is at least this long (the shortest: every required key, one-letter values, `topup`, 121
    /// bytes and the newline), so a part of `n` bytes holds at most `n / 100` entries: room for them all is known
    /// before reading, and each thread writes straight into its own stretch of the result.
    private static let shortestLine: Int64 = 100

    /// The smallest part worth a thread of its own. (Tests lower it to run small files through this path; any
    /// value gives the same entries.)
    nonisolated(unsafe) static var minimumPartBytes: Int64 = 8 << 20

    /// How many parts to cut `byteCount` bytes into: eight per processor (at least two processors, at most 32
    /// parts), none smaller than ``minimumPartBytes``. More parts than threads keep every core busy to the end: the
    /// counting of the parts in order runs beside the parsing of later ones, and the last part is short.
    package static func partCount(for byteCount: Int64) -> Int {
        let processors = Swift.max(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        return Swift.max(1, Swift.min(processors * 8, 32, Int(byteCount / minimumPartBytes)))
    }

    /// Parses the lines between `start` and `end`, in `parts` parts, device strings shared through `owner`.
    /// With `macs`, each signed line is checked on its thread as it is parsed (see ``Outcome/changed``), and the
    /// chain too, from `chainFrom` (the MAC and sequence before the first line; see ``Outcome/chainBreak``).
    static func parse(
        fd: Int32, path: String, from start: Int64, to end: Int64, owner: String, parts: Int,
        macs: LineMACCheck? = nil, counter: EntryCounter? = nil,
        chainFrom: (mac: ChainField?, sequence: Int64) = (nil, 0), hints: [LineMark] = []
    ) throws -> Outcome {
        // Cut where the last full read of this file cut it, with room from the lines it found before each cut: no
        // newline counted (a first read of every byte, 5 to 8% of a cold load). Marks that do not hold cost only
        // that: a part with more lines than its room sends the read to the counted path below.
        if start == 0, let hinted = try hintedParts(hints, fd: fd, path: path, end: end, parts: parts) {
            let job = ParallelLineJob(
                fd: fd, path: path, owner: owner, bounds: hinted.bounds, macs: macs, counter: counter,
                chainFrom: chainFrom)
            if let outcome = try job.parse(room: hinted.room, expected: hinted.expected) { return outcome }
            counter?.reset()
        }
        let bounds = try partBounds(fd: fd, path: path, from: start, to: end, parts: parts)
        let job = ParallelLineJob(
            fd: fd, path: path, owner: owner, bounds: bounds, macs: macs, counter: counter, chainFrom: chainFrom)
        // Each part but the last gets room for exactly its lines (every entry is one line), so the parts are parsed
        // where they end up, end to end, and none has to be moved up to close a gap (a copy of half the entries
        // into new memory, on one thread, was a tenth of a cold load). Should the file's lines change between the
        // count and the parse (they do not, under the ledger's lock), the room is made from the sizes instead.
        if let counted = try lineCounts(fd: fd, path: path, bounds: bounds),
            let outcome = try job.parse(room: counted, expected: expectedLines(bounds: bounds, counted: counted))
        {
            return outcome
        }
        counter?.reset()
        let sized = (0..<(bounds.count - 1)).map { Int((bounds[$0 + 1] - bounds[$0]) / shortestLine) + 1 }
        guard let outcome = try job.parse(room: sized, expected: sized.reduce(0, +) / 3) else {
            preconditionFailure("a ledger line shorter than any valid one was accepted")
        }
        return outcome
    }

    /// Parts cut at `hints` (the marks of an earlier full read of the file, from its start): the marks before
    /// `end` that are line starts, room for each part's lines from the marks, the last part's from its size. Nil
    /// when they are of no use: none, one that is not a line start, or more bytes after the last than two parts
    /// of `parts` hold (the file grew a lot since: counting spreads it over every core).
    static func hintedParts(_ hints: [LineMark], fd: Int32, path: String, end: Int64, parts: Int) throws
        -> (bounds: [Int64], room: [Int], expected: Int)?
    {
        let usable = hints.filter { $0.offset < end }
        guard let last = usable.last, end - last.offset <= 2 * (end / Int64(Swift.max(1, parts))) else { return nil }
        for mark in usable where try !isLineStart(mark.offset, fd: fd, path: path) { return nil }
        var room: [Int] = []
        var before = 0
        for mark in usable {
            room.append(mark.line - before)
            before = mark.line
        }
        let tail = end - last.offset
        room.append(Int(tail / shortestLine) + 1)
        let expected = before + Int(Int64(before) * tail / last.offset) + 1
        return ([0] + usable.map(\.offset) + [end], room, expected)
    }

    /// A whole file's parts for a read that must know every part's lines (a verify's): cut at `hints` as
    /// ``hintedParts(_:fd:path:end:parts:)`` cuts them, the last part's newlines counted; nil when the marks are of
    /// no use.
    package static func hintedCounts(_ hints: [LineMark], fd: Int32, path: String, end: Int64, parts: Int) throws
        -> (bounds: [Int64], counts: [Int])?
    {
        guard let hinted = try hintedParts(hints, fd: fd, path: path, end: end, parts: parts) else { return nil }
        let bounds = hinted.bounds
        let last = try newlineCounts(fd: fd, path: path, bounds: Array(bounds.suffix(2)), parts: 1)
        return (bounds, hinted.room.dropLast() + last)
    }

    /// Whether a line starts at `offset` (the byte before it is a newline).
    private static func isLineStart(_ offset: Int64, fd: Int32, path: String) throws -> Bool {
        var byte: UInt8 = 0
        while true {
            let read = pread(fd, &byte, 1, off_t(offset - 1))
            if read < 0 && errno == EINTR { continue }
            if read < 0 { throw LedgerError.io(path: path, operation: "read", errno: errno) }
            return read == 1 && byte == 0x0A
        }
    }

    /// About how many lines there are: those counted in every part but the last, and as many again for the last
    /// as its size holds at their average length.
    private static func expectedLines(bounds: [Int64], counted: [Int]) -> Int {
        let parts = bounds.count - 1
        guard parts > 1 else { return counted[0] / 3 }
        let lines = counted[0..<(parts - 1)].reduce(0, +)
        let bytes = bounds[parts - 1] - bounds[0]
        guard lines > 0, bytes > 0 else { return counted.reduce(0, +) / 3 }
        return lines + Int(Int64(lines) * (bounds[parts] - bounds[parts - 1]) / bytes) + 1
    }

    /// The newlines in each part but the last (counted on several threads), and room for the last from its size.
    private static func lineCounts(fd: Int32, path: String, bounds: [Int64]) throws -> [Int]? {
        let count = bounds.count - 1
        let last = Int((bounds[count] - bounds[count - 1]) / shortestLine) + 1
        guard count > 1 else { return [last] }
        return try newlineCounts(fd: fd, path: path, bounds: bounds, parts: count - 1) + [last]
    }

    /// The newlines in each of the first `parts` parts between `bounds`, counted on several threads.
    package static func newlineCounts(fd: Int32, path: String, bounds: [Int64], parts count: Int) throws -> [Int] {
        // Each counted part in as many slices as there are parts, so every thread has some of the counting.
        let slices = bounds.count - 1
        let pieces = count * slices
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
        for part in 0..<count {
            var total = 0
            for slice in 0..<slices {
                let value = found[part * slices + slice]
                guard value >= 0 else { throw LedgerError.io(path: path, operation: "read", errno: errno) }
                total += value
            }
            room.append(total)
        }
        return room
    }

    /// `start`, the starts of the lines nearest to cutting `start..<end` into `parts` even parts, and `end` (fewer
    /// parts when the lines are too long for so many).
    package static func partBounds(fd: Int32, path: String, from start: Int64, to end: Int64, parts: Int) throws
        -> [Int64]
    {
        var bounds: [Int64] = [start]
        for k in 1..<Swift.max(1, parts) {
            let target = start + (end - start) * Int64(k) / Int64(parts)
            guard let boundary = try lineStart(after: target, fd: fd, path: path, end: end), boundary > bounds.last!,
                boundary < end
            else { continue }
            bounds.append(boundary)
        }
        bounds.append(end)
        return bounds
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

/// Where the counting threads write. `@unchecked Sendable`: each thread writes only its own slot, and nothing is
/// read until `concurrentPerform` has returned.
private struct Counts: @unchecked Sendable {
    let found: UnsafeMutablePointer<Int>
}
