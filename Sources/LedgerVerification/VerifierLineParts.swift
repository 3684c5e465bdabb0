import Dispatch
import LedgerEntries
import Platform
import Signing

/// One read of a ledger file for verifying in parts (``LedgerVerifier/read(_:macKey:)``): each part of the file,
/// cut at line starts, read a quarter of a megabyte at a time by its own thread, which parses each line, checks its
/// MAC and hashes its id, and writes the line straight to its place (the newlines were counted first, so every part
/// knows where its lines go). The outcome is what ``LedgerVerifier/parse(_:path:)`` and
/// ``LedgerVerifier/checkMACs(of:key:)`` give, without the file's bytes.
struct VerifierLineParts {
    let fd: Int32
    let path: String
    let bounds: [Int64]
    /// The newlines in each part.
    let counts: [Int]
    let key: [UInt8]

    /// What one part found.
    fileprivate struct Part {
        var count = 0
        /// The part held other lines than were counted, or a read failed: the file changed, or cannot be read so.
        var failed = false
        /// The number of its last line when it has no newline (the file's end).
        var tornAt: Int?
        /// Its lines as one good run, when they make one.
        var run: ChainRun?
    }

    /// The file read; nil when a part did not hold the lines counted (the file changed while it was read) or a
    /// read failed.
    func read() -> LedgerVerifier.ReadFile? {
        let parts = bounds.count - 1
        var offsets = [0]
        for count in counts { offsets.append(offsets[offsets.count - 1] + count) }
        // Room for one more line at the end: the last, when it has no newline.
        let capacity = offsets[parts] + 1
        let results = UnsafeMutablePointer<Part>.allocate(capacity: parts)
        results.initialize(repeating: Part(), count: parts)
        defer {
            results.deinitialize(count: parts)
            results.deallocate()
        }
        var valid = [Bool](repeating: false, count: capacity)
        var hashes = [UInt64](repeating: 0, count: capacity)
        var total = 0
        // Small pages, as the cold load's: a fresh `credit verify` took 0.96 s at worst on huge pages (their first
        // touch where free memory went back to the VM's host) and 0.64 s on small ones; later runs in one process
        // the same either way (BENCHMARKS.md, issue 38).
        var figures: [LedgerVerifier.LineFigure] = []
        let lines = [LedgerVerifier.Line](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            figures = [LedgerVerifier.LineFigure](unsafeUninitializedCapacity: capacity) { figureBuffer, figureCount in
                valid.withUnsafeMutableBufferPointer { valid in
                    hashes.withUnsafeMutableBufferPointer { hashes in
                        let slots = LineSlots(
                            lines: buffer.baseAddress!, valid: valid.baseAddress!, hashes: hashes.baseAddress!,
                            figures: figureBuffer.baseAddress!, results: results)
                        let job = self
                        let firsts = offsets
                        DispatchQueue.concurrentPerform(iterations: parts) { index in
                            slots.results[index] = job.readPart(index, first: firsts[index], into: slots)
                        }
                    }
                }
                total = gathered(results, offsets: offsets, lines: buffer.baseAddress!)
                figureCount = total
            }
            initialized = total
        }
        guard !(0..<parts).contains(where: { results[$0].failed }) else { return nil }
        valid.removeSubrange(total...)
        hashes.removeSubrange(total...)
        let tornAt = results[parts - 1].tornAt
        let chain = tornAt == nil ? ChainRun.joined((0..<parts).map { results[$0].run }) : nil
        return LedgerVerifier.ReadFile(
            path: path, bytes: [], lines: lines, tornAt: tornAt,
            checkedMACs: LedgerVerifier.CheckedMACs(key: key, valid: valid, chain: chain), hashes: hashes,
            figures: figures)
    }

    /// How many lines the parts hold in all, end to end; 0, with every line written dropped, when one of them did
    /// not hold the lines counted.
    private func gathered(
        _ results: UnsafeMutablePointer<Part>, offsets: [Int], lines: UnsafeMutablePointer<LedgerVerifier.Line>
    )
        -> Int
    {
        let parts = offsets.count - 1
        var whole = true
        for index in 0..<parts {
            let expected = counts[index] + (results[index].tornAt == nil ? 0 : 1)
            if results[index].failed || results[index].count != expected { whole = false }
        }
        if whole { return offsets[parts] + (results[parts - 1].tornAt == nil ? 0 : 1) }
        for index in 0..<parts {
            (lines + offsets[index]).deinitialize(count: results[index].count)
            results[index].failed = true
        }
        return 0
    }

    /// Reads part `index`, its first line the `first`th of the file (from 0), into `slots`.
    fileprivate func readPart(_ index: Int, first: Int, into slots: LineSlots) -> Part {
        var part = Part()
        guard let hmac = try? HMACSHA256(key: key) else {
            part.failed = true
            return part
        }
        var context = LineReadContext()
        // Where each line's entry is parsed before it is moved into its line (a move, not a copy).
        let scratch = UnsafeMutablePointer<LedgerEntry>.allocate(capacity: 1)
        defer { scratch.deallocate() }
        var tracker = ChainRun.Tracker()
        let room = counts[index]
        do {
            let outcome = try LineChunks.read(
                fd: fd, path: path, from: bounds[index], to: bounds[index + 1], chunkSize: 256 << 10
            ) { line, after in
                guard part.count < room else {
                    part.failed = true
                    return false
                }
                let start = Int(after) - line.count - 1
                take(
                    line, start: start, at: first + part.count, context: &context, hmac: hmac, scratch: scratch,
                    tracker: &tracker, into: slots)
                part.count += 1
                return true
            }
            guard !part.failed else { return part }
            if outcome.unterminated {
                // Only the file's end has a line without a newline: parsed as the line it is, and said to be torn.
                guard index == bounds.count - 2, part.count == room else {
                    part.failed = true
                    return part
                }
                let tail = try readTail(from: outcome.consumed, to: bounds[index + 1])
                tail.withUnsafeBufferPointer { line in
                    take(
                        line, start: Int(outcome.consumed), at: first + part.count, context: &context, hmac: hmac,
                        scratch: scratch, tracker: &tracker, into: slots)
                }
                part.count += 1
                part.tornAt = first + part.count
            }
        } catch {
            part.failed = true
        }
        part.run = tracker.run
        return part
    }

    /// Parses `line` (its bytes, no newline; at `start` in the file), the `position`th line of the file, into its
    /// place: the line, whether its MAC holds, its id's hash.
    @inline(__always)
    private func take(
        _ line: UnsafeBufferPointer<UInt8>, start: Int, at position: Int, context: inout LineReadContext,
        hmac: HMACSHA256, scratch: UnsafeMutablePointer<LedgerEntry>, tracker: inout ChainRun.Tracker,
        into slots: LineSlots
    ) {
        // The line is made once, in its place, its entry moved in from where it was parsed.
        let slot = slots.lines + position
        do throws(EntryParseError) {
            slots.hashes[position] = try EntryCodec.parse(line, context: &context, into: scratch)
            // The MAC and the link read as digests (every line the ledger writes; any other MAC does not hold).
            let mac = scratch.pointee.macDigestHeld
            let valid = mac.map { LedgerVerifier.macHolds(line, digest: $0, with: hmac) } ?? false
            slots.valid[position] = valid
            if valid, let mac, let prev = scratch.pointee.prevDigestHeld {
                tracker.note(device: scratch.pointee.device, sequence: scratch.pointee.sequence, prev: prev, mac: mac)
            } else {
                tracker.noteBroken()
            }
            let kind = scratch.pointee.kind
            slots.figures[position] = LedgerVerifier.LineFigure(
                amount: scratch.pointee.amount.rawValue, plain: kind != .topup && kind != .reversal)
            slot.initialize(
                to: LedgerVerifier.Line(
                    number: position + 1, start: start, count: line.count, entry: scratch.move(), macValid: false,
                    parseError: nil))
        } catch {
            slots.figures[position] = LedgerVerifier.LineFigure(amount: 0, plain: false)
            tracker.noteBroken()
            slot.initialize(
                to: LedgerVerifier.Line(
                    number: position + 1, start: start, count: line.count, entry: nil, macValid: false,
                    parseError: error.reason))
        }
    }

    /// The bytes of the file from `start` to `end`.
    private func readTail(from start: Int64, to end: Int64) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Int(end - start))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + done, $0.count - done, off_t(start) + off_t(done))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw LedgerError.io(path: path, operation: "read", errno: errno) }
            done += count
        }
        return bytes
    }
}

/// Where the reading threads write. `@unchecked Sendable`: each thread writes only its own part's result and the
/// slots of its own lines, and nothing is read until `concurrentPerform` has returned.
private struct LineSlots: @unchecked Sendable {
    let lines: UnsafeMutablePointer<LedgerVerifier.Line>
    let valid: UnsafeMutablePointer<Bool>
    let hashes: UnsafeMutablePointer<UInt64>
    let figures: UnsafeMutablePointer<LedgerVerifier.LineFigure>
    let results: UnsafeMutablePointer<VerifierLineParts.Part>
}
