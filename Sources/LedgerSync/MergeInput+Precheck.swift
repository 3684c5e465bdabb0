import DurableFiles
import LedgerEntries
import Platform
import Signing

extension MergeInput {
    /// The longest line a pre-check reads before it refuses the file: far above any entry the ledger writes (a
    /// top-up with its receipt is a few KiB).
    static let longestLine = 256 * 1024

    /// The largest file read whole without a pre-check (a ledger of about 50,000 entries).
    static let readWholeUpTo: Int64 = 8 << 20

    /// Reads the file at `path` a piece at a time, each line checked as it comes (its length, its entry, its MAC
    /// under `macKey`), and gives the first reason it would be refused, or nil when every line holds. Memory stays
    /// within a piece and a line whatever the file's size, so a huge file that is not a ledger (a sync tool's
    /// conflict copy of something else, a file made as large as the disk) costs nothing to refuse; one that holds
    /// is then read whole, as it is merged. With `directory`, the file is its entry of `path`'s name, opened through
    /// the directory held open.
    static func precheck(_ path: String, macKey: [UInt8], in directory: DirectoryHandle? = nil) throws
        -> MergeRefusal?
    {
        let fd: Int32
        if let directory {
            fd = try directory.openRegularForReading(Files.lastComponent(of: path))
        } else {
            fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            guard fd >= 0 else { throw FileError(path: path, operation: .open, errno: errno) }
        }
        defer { close(fd) }
        var scan = PrecheckScan(path: path, context: try HMACSHA256(key: macKey))
        var piece = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = piece.withUnsafeMutableBytes { readSome(fd, $0) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, operation: .read, errno: errno)
            }
            if count == 0 { return scan.end() }
            if let refusal = scan.take(piece[0..<count]) { return refusal }
        }
    }
}

/// A pre-check's walk through a file's lines, fed a piece at a time.
private struct PrecheckScan {
    let path: String
    let context: HMACSHA256
    /// The start of a line not ended yet.
    var carry: [UInt8] = []
    var number = 0
    var readContext = LineReadContext()

    init(path: String, context: HMACSHA256) {
        self.path = path
        self.context = context
    }

    /// Checks every line `piece` ends; the first refusal, if any.
    mutating func take(_ piece: ArraySlice<UInt8>) -> MergeRefusal? {
        var start = piece.startIndex
        while let newline = piece[start...].firstIndex(of: 0x0A) {
            let refusal: MergeRefusal?
            if carry.isEmpty {
                refusal = line(piece[start..<newline])
            } else {
                carry += piece[start..<newline]
                refusal = line(carry[...])
                carry.removeAll(keepingCapacity: true)
            }
            if let refusal { return refusal }
            start = newline + 1
        }
        carry += piece[start...]
        if carry.count > MergeInput.longestLine { return tooLong(number + 1) }
        return nil
    }

    /// Whatever is left at the end: a last line with no newline is a cut (the whole read says so as it always has).
    func end() -> MergeRefusal? { nil }

    private mutating func line(_ bytes: ArraySlice<UInt8>) -> MergeRefusal? {
        number += 1
        if bytes.count > MergeInput.longestLine { return tooLong(number) }
        return bytes.withUnsafeBufferPointer { buffer -> MergeRefusal? in
            let entry: LedgerEntry
            do throws(EntryParseError) {
                entry = try EntryCodec.parse(buffer, context: &readContext)
            } catch {
                return MergeRefusal(file: path, line: number, reason: .unreadable(error.reason))
            }
            if let problem = LineMACCheck.problem(buffer, mac: entry.macField, signed: true, context: context) {
                // Not one line of ours from the start: another account's file; a bad line after good ones: forged.
                if number == 1 && entry.macField != nil {
                    return MergeRefusal(file: path, line: 1, reason: .otherAccount)
                }
                return MergeRefusal(file: path, line: number, reason: .forged(problem))
            }
            // A device's file holds its chain in order from 1: anything else (a copy pasted after itself) is no chain.
            guard entry.sequence == Int64(number) else {
                return MergeRefusal(
                    file: path, line: number,
                    reason: .chain("entry #\(entry.sequence) stands where #\(number) belongs"))
            }
            return nil
        }
    }

    private func tooLong(_ line: Int) -> MergeRefusal {
        MergeRefusal(
            file: path, line: line,
            reason: .unreadable("the line is longer than any ledger entry (over \(MergeInput.longestLine / 1024) KiB)"))
    }
}

/// `read(2)` into `buffer`, outside the type whose method has the same name.
private func readSome(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(fd, buffer.baseAddress, buffer.count)
}
