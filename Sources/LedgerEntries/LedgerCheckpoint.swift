import DurableFiles
import Platform
import Signing

/// A signed cache of what a full load of a data directory found (`checkpoint`, beside `ledger/`): the balance; for
/// every ledger file its identity, size, change time and last bytes then, and where its chain stood (lines, last
/// sequence, last MAC); the same stamps of every signed head; the store transactions credited; and the ids read
/// (``CheckpointIDs``). While every file and head is unchanged, the balance is the one a full load would compute, so
/// the counter is shown without parsing a line. When files only grew, it is taken forward by the new lines alone,
/// each checked as a full load checks it (``LedgerCheckpoint/counter(directory:)``).
///
/// It is a cache and nothing more: written after the ledger is durable and without an fsync of its own, checked
/// with HMAC-SHA256 under the ledger key, and anything missing, changed, unreadable or not verifying means a full
/// load. It never decides a balance on its own and is never used to write the ledger.
public struct LedgerCheckpoint: Equatable {
    /// What identifies one file's content at one moment. Any write changes the size or the change time (which no
    /// program can set back); a file put in its place changes the inode.
    struct Stamp: Equatable {
        var name: String
        var deviceID: UInt64
        var inode: UInt64
        var size: Int64
        var changedSeconds: Int64
        var changedNanoseconds: Int64
        /// The hexadecimal of the file's last (up to) 32 bytes: a rewrite within one clock tick still shows.
        var tail: String
    }

    /// Where a device file's chain stood when its stamp was taken: what its next line must chain on from.
    struct Chain: Equatable {
        var lines: Int
        var lastSequence: Int64
        var lastMAC: ChainDigest?
        var isSigned: Bool?
    }

    /// One ledger file: its stamp and its chain, and where the parts of its last full read began
    /// (``LineMark``): the next full read cuts the file there without counting its newlines first.
    struct FileMark: Equatable {
        var stamp: Stamp
        var chain: Chain
        var lineMarks: [LineMark] = []
    }

    var device: String
    var balance: Int64
    /// Every `*.jsonl` file under `ledger/`, by name.
    var files: [FileMark]
    /// Every `heads/*.json`, by name (this device's among them).
    var heads: [Stamp]
    /// The stable hashes (``EntryIDIndex/stableHash(_:)``) of the store transactions a top-up credits, sorted.
    var references: [UInt64]
    /// The ids read.
    var ids: CheckpointIDs

    /// Version 3: chains, heads, references and ids, so that appended lines can be taken forward. A version 2
    /// checkpoint (stamps and a balance only) is not read, and the next full load writes a version 3 one.
    static let header = "voicedebrief-ledger-checkpoint-v3"

    static func path(in directory: String) -> String { directory + "/checkpoint" }

    /// A checkpoint larger than this is not read (one is about 300 bytes a device and head, and 17 an id appended
    /// since `checkpoint-ids` was written).
    static let sizeLimit = 1 << 20

    /// Whether a name can go in a checkpoint line as it is.
    static func isPlain(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}

// MARK: the signed text

extension LedgerCheckpoint {
    /// The text signed: one field per line.
    var signedText: String {
        var text = "\(LedgerCheckpoint.header)\ndevice \(device)\nbalance \(balance)\n" + ids.signedText
        for reference in references { text += "reference \(String(reference, radix: 16))\n" }
        for file in files {
            let chain = file.chain
            let signed = chain.isSigned.map { $0 ? "1" : "0" } ?? "-"
            text +=
                "file \(Self.fields(file.stamp)) \(chain.lines) \(chain.lastSequence) "
                + "\(chain.lastMAC?.hex ?? "-") \(signed)\n"
            if !file.lineMarks.isEmpty {
                text += "marks " + file.lineMarks.map { "\($0.offset):\($0.line)" }.joined(separator: " ") + "\n"
            }
        }
        for head in heads { text += "head \(Self.fields(head))\n" }
        return text
    }

    private static func fields(_ stamp: Stamp) -> String {
        "\(stamp.name) \(stamp.deviceID) \(stamp.inode) \(stamp.size) \(stamp.changedSeconds) "
            + "\(stamp.changedNanoseconds) \(stamp.tail)"
    }

    /// The file's bytes: the signed text, then `mac <hex>`.
    func encoded(mac: ([UInt8]) -> [UInt8]) -> [UInt8] {
        let text = Array(signedText.utf8)
        return text + Array("mac \(Hex.encode(mac(text)))\n".utf8)
    }

    /// The line marks the checkpoint in `directory` keeps, by file name, with the file each was taken from; none
    /// when there is no checkpoint that verifies under `macKey` (they are only where to cut a read: see
    /// ``LineMark``).
    package static func lineHints(in directory: String, macKey: [UInt8]) -> [String: DeviceFile.Hints] {
        read(in: directory, macKey: macKey)?.checkpoint.lineHints ?? [:]
    }

    /// The checkpoint in `directory`, with its bytes, when there is one that verifies under `macKey`.
    static func read(in directory: String, macKey: [UInt8]) -> (bytes: [UInt8], checkpoint: LedgerCheckpoint)? {
        guard let bytes = try? Files.readAll(path(in: directory), limit: sizeLimit),
            let checkpoint = decode(bytes, mac: { try? HMACSHA256.authenticationCode(for: $0, key: macKey) })
        else { return nil }
        return (bytes, checkpoint)
    }

    /// Its line marks, by file name, with the file each was taken from.
    var lineHints: [String: DeviceFile.Hints] {
        var hints: [String: DeviceFile.Hints] = [:]
        for file in files where !file.lineMarks.isEmpty {
            hints[file.stamp.name] = DeviceFile.Hints(
                deviceID: file.stamp.deviceID, inode: file.stamp.inode, marks: file.lineMarks)
        }
        return hints
    }

    /// Reads a checkpoint, or nil when it is malformed or its MAC (made by `mac`) does not match.
    ///
    /// Read as bytes, line by line: a checkpoint holds a line for each store transaction credited (14,000 in the
    /// bench's ledger), and splitting its text into substrings, then joining them again for the MAC, took 15 ms of
    /// every open.
    static func decode(_ bytes: [UInt8], mac: ([UInt8]) -> [UInt8]?) -> LedgerCheckpoint? {
        guard bytes.last == 0x0A, String(validating: bytes, as: UTF8.self) != nil,
            let macLineStart = bytes[..<(bytes.count - 1)].lastIndex(of: 0x0A).map({ $0 + 1 })
        else { return nil }
        let macLine = bytes[macLineStart..<(bytes.count - 1)]
        guard macLine.starts(with: "mac ".utf8),
            let expected = Hex.decode(String(decoding: macLine.dropFirst(4), as: UTF8.self)),
            expected.count == HMACSHA256.byteCount,
            let actual = mac(Array(bytes[..<macLineStart])), ConstantTime.equals(actual, expected)
        else { return nil }
        var lines = CheckpointLines(bytes: bytes, end: macLineStart)
        guard let first = lines.next(), first.elementsEqual(header.utf8),
            let deviceLine = lines.next(), deviceLine.starts(with: "device ".utf8),
            let balanceLine = lines.next(), balanceLine.starts(with: "balance ".utf8),
            let balance = Int64(String(decoding: balanceLine.dropFirst(8), as: UTF8.self)),
            let idsLine = lines.next(), let ids = decodeIDs(Substring(String(decoding: idsLine, as: UTF8.self)))
        else { return nil }
        var checkpoint = LedgerCheckpoint(
            device: String(decoding: deviceLine.dropFirst(7), as: UTF8.self), balance: balance, files: [], heads: [],
            references: [], ids: ids)
        while let line = lines.next() {
            if let reference = CheckpointLines.reference(line) {
                checkpoint.references.append(reference)
                continue
            }
            let text = String(decoding: line, as: UTF8.self)
            guard checkpoint.take(text.split(separator: " ", omittingEmptySubsequences: false)) else { return nil }
        }
        return checkpoint
    }

    /// `ids COUNT BYTES TAG`.
    private static func decodeIDs(_ line: Substring) -> CheckpointIDs? {
        let fields = line.split(separator: " ")
        guard fields.count == 4, fields[0] == "ids", let count = Int(fields[1]), count >= 0, count < 1 << 40,
            let bytes = Int(fields[2]), bytes >= 0, bytes < 1 << 44, let tag = ChainDigest(hex: String(fields[3]))
        else { return nil }
        return CheckpointIDs(count: count, bytes: bytes, tag: tag)
    }

    /// Takes one line's fields in; false when it is not one a checkpoint holds.
    private mutating func take(_ fields: [Substring]) -> Bool {
        switch fields.first {
        case "recent":
            let hashes = fields.dropFirst().compactMap { UInt64($0, radix: 16) }
            guard hashes.count == fields.count - 1 else { return false }
            ids.recent += hashes
        case "reference":
            guard fields.count == 2, let hash = UInt64(fields[1], radix: 16) else { return false }
            references.append(hash)
        case "file":
            guard fields.count == 12, let stamp = Self.stamp(fields[1...7]), let lines = Int(fields[8]),
                let sequence = Int64(fields[9])
            else { return false }
            let mac = fields[10] == "-" ? nil : ChainDigest(hex: String(fields[10]))
            guard mac != nil || fields[10] == "-", ["0", "1", "-"].contains(fields[11]) else { return false }
            let signed: Bool? = fields[11] == "-" ? nil : fields[11] == "1"
            files.append(
                FileMark(
                    stamp: stamp, chain: Chain(lines: lines, lastSequence: sequence, lastMAC: mac, isSigned: signed)))
        case "marks":
            // Those of the file line just before it, once.
            guard let last = files.indices.last, files[last].lineMarks.isEmpty,
                let marks = LineMark.list(fields.dropFirst())
            else { return false }
            files[last].lineMarks = marks
        case "head":
            guard fields.count == 8, let stamp = Self.stamp(fields[1...7]) else { return false }
            heads.append(stamp)
        default:
            return false
        }
        return true
    }

    /// A stamp from its seven fields.
    private static func stamp(_ fields: ArraySlice<Substring>) -> Stamp? {
        let fields = Array(fields)
        guard let deviceID = UInt64(fields[1]), let inode = UInt64(fields[2]), let size = Int64(fields[3]),
            let seconds = Int64(fields[4]), let nanoseconds = Int64(fields[5])
        else { return nil }
        return Stamp(
            name: String(fields[0]), deviceID: deviceID, inode: inode, size: size, changedSeconds: seconds,
            changedNanoseconds: nanoseconds, tail: String(fields[6]))
    }
}

/// The lines of a checkpoint's bytes before `end`, each without its newline.
private struct CheckpointLines {
    let bytes: [UInt8]
    let end: Int
    var position = 0

    init(bytes: [UInt8], end: Int) {
        self.bytes = bytes
        self.end = end
    }

    mutating func next() -> ArraySlice<UInt8>? {
        guard position < end else { return nil }
        let newline = bytes[position..<end].firstIndex(of: 0x0A) ?? end
        defer { position = newline + 1 }
        return bytes[position..<newline]
    }

    /// The hash of a `reference HASH` line written as the checkpoint writes it (1 to 16 hex digits); nil for any
    /// other line, which the general reader then takes or refuses.
    static func reference(_ line: ArraySlice<UInt8>) -> UInt64? {
        let prefix = "reference ".utf8
        guard line.count > prefix.count, line.count <= prefix.count + 16, line.starts(with: prefix) else { return nil }
        var value: UInt64 = 0
        for byte in line.dropFirst(prefix.count) {
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}
