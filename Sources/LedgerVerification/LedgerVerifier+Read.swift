import Dispatch
import DurableFiles
import LedgerEntries
import Platform
import Signing

extension LedgerVerifier {
    /// A ledger file as read for verifying: its bytes and every line parsed. Reading (the I/O and the parsing) is
    /// one half of a verify; ``LedgerVerifier/verify(read:heads:requireHeads:)`` is the other, the checking.
    public struct ReadFile: Sendable {
        public let path: String
        package let bytes: [UInt8]
        package let lines: [Line]
        /// The line without a final newline, if any.
        package let tornAt: Int?
        /// Each line's MAC checked as the file was read (``read(_:macKey:)``), and with which key; nil when not.
        var checkedMACs: CheckedMACs? = nil
        /// Each line's id hash (``EntryIDIndex/hash(_:)``; 0 for a line without an entry), when the read made them.
        var hashes: [UInt64]? = nil
        /// What the balance needs of each line, when the read made them.
        var figures: [LineFigure]? = nil

        /// How many lines were read (a torn last one included).
        public var lineCount: Int { lines.count }
    }

    /// What the balance needs of a line, kept beside it as the file is read: its amount, and whether it is summed as
    /// it is (not a top-up or a reversal, whose receipt and reference are checked first). A good file's balance is
    /// then summed from these, in order, and not from each line's whole entry.
    struct LineFigure {
        var amount: Int64
        var plain: Bool
    }

    /// Reads and parses `path` for verifying.
    public static func read(_ path: String) throws -> ReadFile {
        parse(try Files.readAll(path), path: path)
    }

    /// Parses the bytes of the file at `path` for verifying: every line, a bad one kept with why it is bad.
    package static func parse(_ bytes: [UInt8], path: String) -> ReadFile {
        var lines: [Line] = []
        lines.reserveCapacity(bytes.count / 160 + 1)
        var tornAt: Int?
        bytes.withUnsafeBufferPointer { buffer in
            var context = LineReadContext()
            var start = 0
            var number = 0
            while start < buffer.count {
                number += 1
                let newline = memchrIndex(buffer, from: start)
                let end = newline ?? buffer.count
                if newline == nil { tornAt = number }
                let slice = UnsafeBufferPointer(rebasing: buffer[start..<end])
                var line = Line(
                    number: number, start: start, count: end - start, entry: nil, macValid: false, parseError: nil)
                do throws(EntryParseError) {
                    line.entry = try EntryCodec.parse(slice, context: &context)
                } catch {
                    line.parseError = error.reason
                }
                lines.append(line)
                start = end + 1
            }
        }
        return ReadFile(path: path, bytes: bytes, lines: lines, tornAt: tornAt)
    }

    /// Whether each line's MAC holds over its exact bytes (false for a line without an entry or a MAC). A large
    /// file's lines are checked on several threads, each with its own HMAC context under the same key.
    package static func checkMACs(of file: ReadFile, key: [UInt8]) throws -> [Bool] {
        if let checked = file.checkedMACs, checked.key == key { return checked.valid }
        precondition(
            !file.bytes.isEmpty || file.lines.isEmpty, "a file read without its bytes checked with another key")
        var valid = [Bool](repeating: false, count: file.lines.count)
        let parts = file.lines.count >= 20_000 ? ParallelLines.partCount(for: Int64(file.bytes.count)) : 1
        var contexts: [HMACSHA256] = []
        for _ in 0..<Swift.max(1, parts) { contexts.append(try HMACSHA256(key: key)) }
        let count = file.lines.count
        valid.withUnsafeMutableBufferPointer { results in
            let target = SendableBools(base: results.baseAddress)
            let work = SendableWork(file: file, contexts: contexts)
            if parts <= 1 {
                checkMACs(work.file, lines: 0..<count, with: work.contexts[0], into: target)
                return
            }
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let range = (count * part / parts)..<(count * (part + 1) / parts)
                checkMACs(work.file, lines: range, with: work.contexts[part], into: target)
            }
        }
        return valid
    }

    private static func checkMACs(
        _ file: ReadFile, lines range: Range<Int>, with hmac: HMACSHA256, into valid: SendableBools
    ) {
        guard let results = valid.base else { return }
        file.bytes.withUnsafeBytes { raw in
            file.lines.withUnsafeBufferPointer { lines in
                for index in range {
                    let start = lines[index].start
                    let line = UnsafeRawBufferPointer(rebasing: raw[start..<(start + lines[index].count)])
                    results[index] = macHolds(
                        line.bindMemory(to: UInt8.self), mac: lines[index].entry?.macField, with: hmac)
                }
            }
        }
    }

    /// Whether `line` (its bytes, no newline), whose entry's `mac` field is `mac`, carries a MAC that holds over
    /// its exact bytes. (The field, not the entry, is passed: no copy of the entry per line.)
    @inline(__always)
    static func macHolds(_ line: UnsafeBufferPointer<UInt8>, mac: ChainField?, with hmac: HMACSHA256) -> Bool {
        switch mac {
        case .digest(let expected)?: return macHolds(line, digest: expected, with: hmac)
        case .text?, nil:
            // Not the 64 lowercase hex digits the ledger writes (capitals, say): the line was changed, even if the
            // digits spell the right MAC, and is judged so on its own line.
            return false
        }
    }

    /// Whether the MAC `expected` holds over `line`'s bytes up to its `mac` field (the check a load makes).
    @inline(__always)
    static func macHolds(_ line: UnsafeBufferPointer<UInt8>, digest expected: ChainDigest, with hmac: HMACSHA256)
        -> Bool
    {
        LineMACCheck.problem(line, digest: expected, context: hmac) == nil
    }

    /// The last MAC of `file` when every line is what a good file holds: a signed entry of `device` whose MAC
    /// verifies, sequences 1, 2, 3 ... in order, each `prev` the MAC before it, and a final newline. Nil
    /// otherwise: then every line is judged one by one, to say what is wrong where.
    package static func cleanChain(of file: ReadFile, device: String, macValid: [Bool]) -> ChainDigest? {
        guard file.tornAt == nil else { return nil }
        // Already checked as the file was read, on every core, with these MACs.
        if let checked = file.checkedMACs, let run = checked.chain, checked.valid == macValid {
            return run.end(ofFileOf: device)
        }
        return file.lines.withUnsafeBufferPointer { lines -> ChainDigest? in
            var last = ChainDigest.zero
            var expected: Int64 = 1
            for index in lines.indices {
                guard macValid[index], lines[index].entry?.sequence == expected,
                    case .digest(let mac)? = lines[index].entry?.macField,
                    case .digest(let prev)? = lines[index].entry?.prevField, prev == last,
                    lines[index].entry?.device == device
                else { return nil }
                last = mac
                expected += 1
            }
            return last
        }
    }

    private static func memchrIndex(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = buffer.baseAddress, start < buffer.count,
            let found = memchr(base + start, 0x0A, buffer.count - start)
        else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    }
}

/// The verdicts being written by the MAC-checking threads. `@unchecked Sendable`: each thread writes only the
/// slots of its own lines, and the array is read only after `concurrentPerform` has returned.
private struct SendableBools: @unchecked Sendable {
    let base: UnsafeMutablePointer<Bool>?
}

/// What the MAC-checking threads read. `@unchecked Sendable`: the file is only read, and each thread uses only
/// its own HMAC context.
private struct SendableWork: @unchecked Sendable {
    let file: LedgerVerifier.ReadFile
    let contexts: [HMACSHA256]
}
