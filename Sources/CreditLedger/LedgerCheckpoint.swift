import DurableFiles
import Platform
import Signing

/// A signed cache of what a full load of a data directory found (`checkpoint`, beside `ledger/`): the balance,
/// and the identity, size, change time and last bytes of every ledger file and of this device's head as they were
/// then. While every one of them is unchanged, the balance is the one a full load would compute, so the counter
/// can be shown without parsing a line.
///
/// It is a cache and nothing more: written after the ledger is durable and without an fsync of its own, checked
/// with HMAC-SHA256 under the ledger key, and anything missing, changed, unreadable or not verifying means a full
/// load. It never decides a balance on its own and is never used to write.
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

    var device: String
    var balance: Int64
    /// Every `*.jsonl` file under `ledger/`, by name.
    var files: [Stamp]
    /// `heads/<device>.json`, when there is one.
    var head: Stamp?

    /// Version 2: written only after every line up to each file's size was checked (its MAC and its chain), so a
    /// version 1 checkpoint (from before lines were checked at every read) is never trusted.
    static let header = "voicedebrief-ledger-checkpoint-v2"

    static func path(in directory: String) -> String { directory + "/checkpoint" }

    /// The current stamp of `path` (named `name`), or nil when it cannot be read or is not a regular file (a link
    /// is not followed).
    static func stamp(_ path: String, name: String) -> Stamp? {
        guard let fd = try? Files.openRegularForReading(path) else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let size = Int64(info.st_size)
        let count = Int(min(size, 32))
        var tail = [UInt8](repeating: 0, count: count)
        if count > 0 {
            let read = tail.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, count, off_t(size - Int64(count))) }
            guard read == count else { return nil }
        }
        #if canImport(Darwin)
            let changed = info.st_ctimespec
        #else
            let changed = info.st_ctim
        #endif
        return Stamp(
            name: name, deviceID: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: size,
            changedSeconds: Int64(changed.tv_sec), changedNanoseconds: Int64(changed.tv_nsec), tail: Hex.encode(tail))
    }

    /// The stamps of every ledger file and of `device`'s head in `directory` now, or nil when one cannot be read
    /// or a name cannot be written in a checkpoint.
    static func currentStamps(in directory: String, device: String) -> (files: [Stamp], head: Stamp?)? {
        let ledger = directory + "/ledger"
        guard let names = try? Files.list(ledger) else { return nil }
        var files: [Stamp] = []
        for name in names where name.hasSuffix(".jsonl") {
            guard isPlain(name), let stamp = stamp(ledger + "/" + name, name: name) else { return nil }
            files.append(stamp)
        }
        let headPath = SignedHead.path(in: directory, device: device)
        var head: Stamp?
        if Files.exists(headPath) {
            guard let stamp = stamp(headPath, name: "head") else { return nil }
            head = stamp
        }
        return (files, head)
    }

    /// The text signed: one field per line.
    var signedText: String {
        func line(_ kind: String, _ stamp: Stamp) -> String {
            "\(kind) \(stamp.name) \(stamp.deviceID) \(stamp.inode) \(stamp.size) \(stamp.changedSeconds) "
                + "\(stamp.changedNanoseconds) \(stamp.tail)\n"
        }
        var text = "\(LedgerCheckpoint.header)\ndevice \(device)\nbalance \(balance)\n"
        for file in files { text += line("file", file) }
        if let head { text += line("head", head) }
        return text
    }

    /// The file's bytes: the signed text, then `mac <hex>`.
    func encoded(mac: ([UInt8]) -> [UInt8]) -> [UInt8] {
        let text = Array(signedText.utf8)
        return text + Array("mac \(Hex.encode(mac(text)))\n".utf8)
    }

    /// Reads a checkpoint, or nil when it is malformed or its MAC does not verify under `macKey`.
    static func decode(_ bytes: [UInt8], macKey: [UInt8]) -> LedgerCheckpoint? {
        guard let text = String(validating: bytes, as: UTF8.self), text.hasSuffix("\n") else { return nil }
        let lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 4, lines[0] == header, let macLine = lines.last, macLine.hasPrefix("mac "),
            let expected = Hex.decode(String(macLine.dropFirst(4))), expected.count == HMACSHA256.byteCount
        else { return nil }
        let signed = Array(lines.dropLast().joined(separator: "\n").utf8) + [0x0A]
        guard let actual = try? HMACSHA256.authenticationCode(for: signed, key: macKey),
            ConstantTime.equals(actual, expected)
        else { return nil }
        guard lines[1].hasPrefix("device "), lines[2].hasPrefix("balance "),
            let balance = Int64(lines[2].dropFirst(8))
        else { return nil }
        var checkpoint = LedgerCheckpoint(device: String(lines[1].dropFirst(7)), balance: balance, files: [], head: nil)
        for line in lines[3..<(lines.count - 1)] {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 8, let deviceID = UInt64(fields[2]), let inode = UInt64(fields[3]),
                let size = Int64(fields[4]), let seconds = Int64(fields[5]), let nanoseconds = Int64(fields[6])
            else { return nil }
            let stamp = Stamp(
                name: String(fields[1]), deviceID: deviceID, inode: inode, size: size, changedSeconds: seconds,
                changedNanoseconds: nanoseconds, tail: String(fields[7]))
            switch fields[0] {
            case "file": checkpoint.files.append(stamp)
            case "head" where checkpoint.head == nil: checkpoint.head = stamp
            default: return nil
            }
        }
        return checkpoint
    }

    /// Whether a name can go in a checkpoint line as it is.
    static func isPlain(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}

extension LedgerCheckpoint {
    /// The balance of the ledger in `directory` from its signed checkpoint, when the checkpoint verifies under the
    /// ledger key and every ledger file, and this device's head, is exactly as it was when the checkpoint was
    /// written; nil otherwise (open the ledger then: a full load, which also writes a new checkpoint). Reads a
    /// few small files and changes nothing.
    public static func balance(directory: String) -> MicroCredits? {
        let ledger = directory + "/ledger"
        // A directory that is not safe to read is for the full open to refuse, by name. The lock is taken for
        // reading: nothing is made, so a read-only data directory is read too.
        guard (try? LedgerDirectory.check(directory)) != nil, Files.exists(ledger + "/.lock"),
            let lock = try? FileLock(readingPath: ledger + "/.lock")
        else {
            return nil
        }
        defer { lock.unlock() }
        guard let device = try? LedgerDirectory.deviceID(in: directory),
            let macKey = try? KeyFile.read(LedgerKeys.macKeyPath(in: directory)), macKey.count >= 16,
            let bytes = try? Files.readAll(path(in: directory)),
            let checkpoint = decode(bytes, macKey: macKey), checkpoint.device == device,
            let now = currentStamps(in: directory, device: device),
            now.files == checkpoint.files, now.head == checkpoint.head
        else { return nil }
        return MicroCredits(checkpoint.balance)
    }

    /// Writes the checkpoint for what `ledger` has loaded now, if it is worth one: a signed ledger, everything on
    /// disk read, and nothing a full load would have to say (a conflicting duplicate, another device's file behind
    /// its signed head). Must hold the ledger's lock.
    /// Never fails: a checkpoint not written only means a full load next time.
    static func writeLocked(for ledger: Ledger) {
        let device = ledger.device
        let loadedFiles = ledger.loadedFiles
        guard ledger.isSigned, let authenticator = ledger.authenticator, isPlain(device),
            !ledger.notices.contains(where: { if case .conflictingDuplicate = $0 { true } else { false } }),
            // Nor while another device's file is behind its head: `credit balance` reads it all, and says so.
            !ledger.hasMergedHeadNotice,
            let now = currentStamps(in: ledger.directory, device: device),
            now.files.count == loadedFiles.count,
            now.files.allSatisfy({ loadedFiles[$0.name] == $0.size })
        else {
            return
        }
        let checkpoint = LedgerCheckpoint(
            device: device, balance: ledger.balance.rawValue, files: now.files, head: now.head)
        let bytes = checkpoint.encoded { authenticator.authenticationCode(for: $0) }
        let path = path(in: ledger.directory)
        if let existing = try? Files.readAll(path), existing == bytes { return }
        // Through the seam's replace (an exclusively made temporary, renamed over the old one: a link, a hard link
        // or a FIFO planted at `checkpoint` is replaced, never written through), without an fsync: after a crash a
        // partial or lost checkpoint does not verify, or no longer matches the files, and a full load follows. On
        // the real file system, as before: a cache is not part of what a test layer underneath checks.
        // Through the data directory held open: a swapped directory never receives it.
        guard let held = ledger.held else { return }
        try? SystemFileSystem().replaceUnsynced(Files.lastComponent(of: path), in: held.data, with: bytes, mode: 0o600)
    }
}
