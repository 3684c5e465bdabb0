import DurableFiles
import Platform

/// One device's ledger file (`ledger/<device>.jsonl`) as far as it has been read: how many bytes and lines, and its
/// last sequence and MAC, which the next entry appended to it chains from. Reading it is here; writing it is
/// ``DeviceFileWriter``'s.
///
/// Reads do not go through the file-system seam: they see what the kernel shows, which is what a test layer
/// underneath passes through.
package struct DeviceFile {
    var path: String
    /// The bytes read (and accepted) so far.
    var size: Int64 = 0
    package var lines = 0
    package var lastSequence: Int64 = 0
    var lastMAC: ChainField?
    /// Whether its entries carry MACs; nil until one is read.
    var isSigned: Bool?
    /// Where the parts of its first read began, when it was read from its start in parts (kept by the checkpoint
    /// for the next process's first read: ``LineMark``).
    var lineMarks: [LineMark] = []

    /// The marks of an earlier full read of the file that was, when it was read (its file system and inode): of use
    /// only while it is the same file.
    package struct Hints: Sendable {
        var deviceID: UInt64
        var inode: UInt64
        var marks: [LineMark]

        /// The marks, when they were taken from the file `info` describes (the same file system and inode).
        package func marks(for info: stat) -> [LineMark] {
            deviceID == UInt64(info.st_dev) && inode == UInt64(info.st_ino) ? marks : []
        }
    }

    /// What one read of the lines after ``size`` found.
    struct NewLines {
        /// Where the read's first entry went in the entries it appended to.
        var first: Int
        /// The offset just past the last whole entry read: the file's length once a torn tail is cut off.
        var consumed: Int64
        /// The bytes after `consumed` when the last line is torn (unfinished or unreadable), to be set aside.
        var tornTail: [UInt8]?
        /// The ids' hashes, when the read made them (a parallel read).
        var hashes: [UInt64]?
        /// Whether the read checked the new entries' chain already (a parallel read, on its threads).
        var chainChecked = false
        /// The highest sequence among the new entries, when the read found it.
        var lastSequence: Int64?
        /// Where the parts of a parallel read from the file's start began.
        var lineMarks: [LineMark] = []
    }

    /// Reads the file from where the last read stopped, a few megabytes at a time, each line parsed straight onto
    /// the end of `entries` (`owner`'s lines). Nil when the file has not grown. A bad last line is a torn tail,
    /// handed back to be set aside; a bad line with whole entries after it is corruption: the error names the file
    /// and line (and the caller drops what was appended). Changes nothing of `self`: see ``take(_:of:)``.
    ///
    /// With `macs`, every line of a signed file is checked as it is read (``LineMACCheck``), and one that does not
    /// verify throws ``LedgerError/brokenChain(file:line:reason:)`` wherever it is, the last line too: a whole line
    /// that parses is no torn write.
    ///
    /// With `directory` (`ledger/` held open), the file is opened through it: the directory checked, whatever its
    /// path names now.
    ///
    /// With `counter`, a large first read counts its entries into it as they are parsed (see ``EntryCounter``).
    func readNewLines(
        into entries: inout [LedgerEntry], owner: String, macs: LineMACCheck? = nil,
        in directory: DirectoryHandle? = nil, counter: EntryCounter? = nil, hints: Hints? = nil
    ) throws -> NewLines? {
        // Never through a link, never a FIFO or a directory: those are refused by name (a FileError that says so).
        let fd: Int32
        do {
            fd =
                try directory.map { try $0.openRegularForReading(Files.lastComponent(of: self.path)) }
                ?? Files.openRegularForReading(path)
        } catch let error as FileError where error.found == nil && !error.isSymbolicLink {
            throw LedgerError.io(path: path, operation: "open", errno: error.errno)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw LedgerError.io(path: path, operation: "fstat", errno: errno) }
        let end = Int64(info.st_size)
        guard end > size else { return nil }
        let parts = ParallelLines.partCount(for: end - size)
        if entries.isEmpty && parts > 1 {
            let marks = size == 0 ? hints?.marks(for: info) ?? [] : []
            return try readInParallel(
                into: &entries, owner: owner, fd: fd, end: end, parts: parts, macs: macs, counter: counter,
                hints: marks)
        }
        let hmac = try macs?.makeContext()
        var signed = isSigned
        let first = entries.count
        // Room for the lines expected (only the pages used become memory), so the array is never copied to grow.
        entries.reserveCapacity(first + Int((end - size) / 160) + 1)
        var context = LineReadContext(device: owner)
        var tornReason: String?
        var lineNumber = lines
        let path = self.path
        let outcome = try LineChunks.read(fd: fd, path: path, from: size, to: end) { line, after in
            lineNumber += 1
            let entry: LedgerEntry
            do throws(EntryParseError) {
                entry = try EntryCodec.parse(line, context: &context)
            } catch {
                // Torn: the bad line is the last, or nothing after it reads as an entry either (a power loss can
                // leave any bytes, newlines too, where a file grew); never when a whole entry follows it.
                if after == end || !DeviceFile.anyEntry(fd: fd, from: after, to: end) {
                    tornReason = error.reason
                    return false
                }
                throw LedgerError.corruptLine(file: path, line: lineNumber, reason: error.reason)
            }
            if let hmac {
                if signed == nil { signed = entry.macField != nil }
                if let problem = LineMACCheck.problem(line, mac: entry.macField, signed: signed!, context: hmac) {
                    throw LedgerError.brokenChain(file: path, line: lineNumber, reason: problem)
                }
            }
            entries.append(entry)
            return true
        }
        if outcome.unterminated { tornReason = "no newline at the end" }
        let tail = tornReason == nil ? nil : try Files.readAll(fd: fd, path: path, from: outcome.consumed)
        return NewLines(first: first, consumed: outcome.consumed, tornTail: tail, hashes: nil)
    }

    /// ``readNewLines(into:owner:)`` for a large first read: the lines parsed on several threads, then put together
    /// in order, with exactly the outcome of reading them one after the other (the first bad line decides: the
    /// last line of the file is a torn tail, any other is corruption). With `macs`, the chain is checked too, each
    /// part on its thread and the parts joined here, as ``checkChain(of:)`` would after the read.
    private func readInParallel(
        into entries: inout [LedgerEntry], owner: String, fd: Int32, end: Int64, parts: Int, macs: LineMACCheck?,
        counter: EntryCounter?, hints: [LineMark]
    ) throws -> NewLines {
        let outcome = try ParallelLines.parse(
            fd: fd, path: path, from: size, to: end, owner: owner, parts: parts, macs: macs, counter: counter,
            chainFrom: lines == 0 ? (.digest(ChainDigest.zero), 0) : (lastMAC, lastSequence), hints: hints)
        if let changed = outcome.changed {
            throw LedgerError.brokenChain(file: path, line: lines + changed.index + 1, reason: changed.reason)
        }
        // A signed file (its first line carries a MAC, or it is known to be signed) has a MAC on every line.
        if macs != nil, isSigned ?? (outcome.entries.first?.macField != nil), let unsigned = outcome.firstUnsigned {
            throw LedgerError.brokenChain(file: path, line: lines + unsigned + 1, reason: "it carries no MAC")
        }
        var tornReason: String?
        if let failure = outcome.failure {
            guard failure.lineEnd == end else {
                throw LedgerError.corruptLine(file: path, line: lines + failure.index + 1, reason: failure.reason)
            }
            tornReason = failure.reason
        } else if outcome.unterminated {
            tornReason = "no newline at the end"
        }
        let signed = isSigned ?? (outcome.entries.first?.macField != nil)
        if macs != nil, signed, let broken = outcome.chainBreak {
            throw LedgerError.brokenChain(file: path, line: lines + broken.index + 1, reason: broken.reason)
        }
        let tail = tornReason == nil ? nil : try Files.readAll(fd: fd, path: path, from: outcome.consumed)
        entries = outcome.entries
        return NewLines(
            first: 0, consumed: outcome.consumed, tornTail: tail, hashes: outcome.hashes, chainChecked: macs != nil,
            lastSequence: outcome.lastSequence, lineMarks: size == 0 && lines == 0 ? outcome.marks : [])
    }

    /// Takes in what a read found, once its torn tail (if any) is set aside: the size, and from the new entries
    /// (`entries[read.first...]`) the line count, signedness, last MAC and last sequence. Returns the line number of
    /// the first new entry, or nil when there is none.
    mutating func take(_ read: NewLines, of entries: [LedgerEntry]) -> Int? {
        if !read.lineMarks.isEmpty { lineMarks = read.lineMarks }
        size = read.consumed
        let first = read.first
        guard entries.count > first else { return nil }
        if isSigned == nil { isSigned = entries[first].macField != nil }
        lastMAC = entries[entries.count - 1].macField
        if let known = read.lastSequence {
            lastSequence = max(lastSequence, known)
        } else {
            lastSequence = entries.withUnsafeBufferPointer { list in
                list[first...].reduce(lastSequence) { max($0, $1.sequence) }
            }
        }
        let firstLine = lines + 1
        lines += entries.count - first
        return firstLine
    }

    /// Checks that `new` (the entries just read, after the ``lines`` taken before) chain on from what was read:
    /// in a signed file each entry's `prev` is the MAC of the one before it (zeros for the first) and its sequence
    /// the next one. A line removed, inserted or moved throws ``LedgerError/brokenChain(file:line:reason:)``.
    func checkChain(of new: ArraySlice<LedgerEntry>) throws {
        guard let first = new.first, isSigned ?? (first.macField != nil) else { return }
        var previous = lines == 0 ? ChainField.digest(ChainDigest.zero) : lastMAC
        var sequence = lines == 0 ? 0 : lastSequence
        var line = lines
        for index in new.indices {
            line += 1
            if let reason = DeviceFile.chainProblem(new[index], after: previous, sequence: sequence) {
                throw LedgerError.brokenChain(file: path, line: line, reason: reason)
            }
            previous = new[index].macField
            sequence = new[index].sequence
        }
    }

    /// Why `entry` does not chain on from an entry whose MAC is `previous` (nil: not known, not checked) and
    /// sequence `sequence`, or nil when it does.
    @inline(__always)
    static func chainProblem(_ entry: LedgerEntry, after previous: ChainField?, sequence: Int64) -> String? {
        chainProblem(sequence: entry.sequence, prev: entry.prevField, after: previous, sequence: sequence)
    }

    /// ``chainProblem(_:after:sequence:)`` of an entry with `sequence` and `prev`.
    static func chainProblem(
        sequence: Int64, prev: ChainField?, after previous: ChainField?, sequence before: Int64
    ) -> String? {
        guard before < Int64.max, sequence == before + 1 else {
            return "its sequence is #\(sequence), not the one after #\(before)"
        }
        guard previous == nil || prev == previous else {
            return "it does not chain from the line before it (its prev)"
        }
        return nil
    }

    /// Whether a whole line between `start` and `end` of the file reads as an entry.
    private static func anyEntry(fd: Int32, from start: Int64, to end: Int64) -> Bool {
        guard let rest = try? Files.readAll(fd: fd, path: "", from: start) else { return true }
        let lines = rest.prefix(Int(end - start)).split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        return lines.contains { (try? EntryCodec.parse(Array($0))) != nil }
    }
}
