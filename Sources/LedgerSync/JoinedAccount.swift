import DurableFiles
import LedgerEntries
import LedgerVerification
import Platform
import Signing

/// What `credit join` takes from an account's data directory, read and checked before anything is written: the keys
/// as their bytes, every ledger file verified whole under them, the signed heads (those of files that are gone too:
/// they are evidence for `credit verify`), and the other files the app names (its store configuration).
struct JoinedAccount {
    var macKey: [UInt8]
    var headKey: [UInt8]
    var publicKey: [UInt8]
    var inputs: [MergeInput]
    /// Signed heads by file name (`<device>.json`), as their bytes.
    var heads: [String: [UInt8]]
    /// Other files taken as they are, by their path inside the data directory.
    var extras: [String: [UInt8]]
    var balance: MicroCredits

    /// The account's devices: those with a ledger file, and those with only a head.
    var devices: [String] { inputs.compactMap(\.device) }
    var entries: Int { inputs.reduce(0) { $0 + $1.file.lineCount } }
    /// Every device id the account has used: a new device's id must be none of them.
    var knownDevices: Set<String> { Set(devices + heads.keys.map { String($0.dropLast(5)) }) }

    /// Reads the account at `account`, taking also each of `extras` (files, or directories of files, by their path
    /// inside it) that is there.
    ///
    /// - Throws: ``JoinError`` when it is not an account, or a file does not verify.
    static func read(_ account: String, extras: [String] = []) throws -> JoinedAccount {
        // Nothing inside the account's directory is reached through a link: its `keys/` is refused by name here, as
        // its `ledger/` and `heads/` are where they are read.
        if let info = try Files.entryStatus(LedgerKeys.directory(in: account)), info.st_mode & S_IFMT == S_IFLNK {
            throw DataDirectoryError.symbolicLink(path: LedgerKeys.directory(in: account))
        }
        let keys: LedgerKeys
        let keyBytes: (mac: [UInt8], head: [UInt8], publicKey: [UInt8])
        do {
            keys = try LedgerKeys.load(from: account)
            let publicPath = LedgerKeys.headPublicKeyPath(in: account)
            keyBytes = (
                try KeyFile.read(LedgerKeys.macKeyPath(in: account)),
                try KeyFile.read(LedgerKeys.headKeyPath(in: account)),
                Files.exists(publicPath)
                    ? try Files.readAll(publicPath) : Array(keys.headKey.publicKey.pemRepresentation.utf8)
            )
        } catch {
            throw JoinError.notAnAccount(directory: account, reason: "its keys cannot be read (\(error))")
        }
        let inputs = try verifiedInputs(account, keys: keys)
        var union = LedgerUnion(existing: [])
        for input in inputs {
            guard let owner = input.device else { continue }
            let lines = input.lines
            _ = union.add(device: owner, incoming: lines.map(\.entry), lines: lines.map(\.line), source: input.path)
        }
        return JoinedAccount(
            macKey: keyBytes.mac, headKey: keyBytes.head, publicKey: keyBytes.publicKey, inputs: inputs,
            heads: try readHeads(account), extras: try readExtras(extras, in: account), balance: union.balance)
    }

    private static func verifiedInputs(_ account: String, keys: LedgerKeys) throws -> [MergeInput] {
        do {
            return try MergeInput.read([account]).map {
                try MergeInput.checked(
                    path: $0.path, head: $0.head, headPath: $0.headPath, macKey: keys.macKey,
                    publicKey: keys.headKey.publicKey, in: $0.ledger)
            }
        } catch let refusal as MergeRefusal {
            if case .notALedger(let reason) = refusal.reason {
                throw JoinError.notAnAccount(directory: account, reason: reason)
            }
            throw JoinError.refused(refusal)
        }
    }

    /// Every head file of a device id (anything else in `heads/` names no device here, and is not taken), read
    /// through `heads/` held open: a link in its place is refused by name.
    private static func readHeads(_ account: String) throws -> [String: [UInt8]] {
        let source = try DirectoryHandle(opening: account, followingLink: true)
        guard let directory = try MergeInput.sourceDirectory("heads", in: source) else { return [:] }
        let names = ((try? directory.names()) ?? []).filter {
            $0.hasSuffix(".json") && DeviceID.isValid(String($0.dropLast(5)))
        }
        var heads: [String: [UInt8]] = [:]
        for name in names {
            heads[name] = try directory.readAll(name, limit: SignedHead.largestFile)
        }
        return heads
    }

    /// The regular files among `paths` (each a file, or a directory whose regular files are taken), never through
    /// a link.
    private static func readExtras(_ paths: [String], in account: String) throws -> [String: [UInt8]] {
        var taken: [String: [UInt8]] = [:]
        for path in paths {
            guard let info = try Files.entryStatus(account + "/" + path) else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                for name in try Files.list(account + "/" + path) where !name.hasPrefix(".") {
                    let inner = path + "/" + name
                    guard let found = try Files.entryStatus(account + "/" + inner), found.st_mode & S_IFMT == S_IFREG
                    else { continue }
                    taken[inner] = try Files.readAll(account + "/" + inner)
                }
            } else {
                taken[path] = try Files.readAll(account + "/" + path)
            }
        }
        return taken
    }

    /// Writes the new device into `directory` (made here, 0700), every file synced, the `device` file last. The
    /// directory is opened once (never through a link) and every directory in it made and opened through its
    /// parent's descriptor, every file written through its directory's: one swapped for a link meanwhile receives
    /// nothing.
    func write(into directory: String, device: String, fileSystem: any FileSystem) throws {
        try fileSystem.makeDirectories(directory)
        let data = try DirectoryHandle(opening: directory)
        let keys = try Self.madeDirectory("keys", in: data, fileSystem: fileSystem)
        try fileSystem.replaceAtomically(LedgerKeys.macKeyName, in: keys, with: macKey, mode: 0o600)
        try fileSystem.replaceAtomically(LedgerKeys.headKeyName, in: keys, with: headKey, mode: 0o600)
        try fileSystem.replaceAtomically(LedgerKeys.headPublicKeyName, in: keys, with: publicKey, mode: 0o644)
        let ledger = try Self.madeDirectory("ledger", in: data, fileSystem: fileSystem)
        for input in inputs {
            guard let owner = input.device else { continue }
            try fileSystem.replaceAtomically("\(owner).jsonl", in: ledger, with: input.file.bytes, mode: 0o600)
        }
        if !heads.isEmpty {
            let headsDirectory = try Self.madeDirectory("heads", in: data, fileSystem: fileSystem)
            for (name, bytes) in heads.sorted(by: { $0.key < $1.key }) {
                try fileSystem.replaceAtomically(name, in: headsDirectory, with: bytes, mode: 0o600)
            }
        }
        for (path, bytes) in extras.sorted(by: { $0.key < $1.key }) {
            // A file at the top, or in a directory of files (`store-roots/<name>`).
            let parts = path.split(separator: "/").map(String.init)
            var into = data
            for part in parts.dropLast() { into = try Self.madeDirectory(part, in: into, fileSystem: fileSystem) }
            try fileSystem.replaceAtomically(parts.last ?? path, in: into, with: bytes, mode: 0o600)
        }
        try fileSystem.replaceAtomically("device", in: data, with: Array((device + "\n").utf8), mode: 0o600)
    }

    /// The directory `name` in `parent`, made (0700, made durable in `parent`) when missing, and opened through
    /// `parent`'s descriptor, never through a link.
    private static func madeDirectory(
        _ name: String, in parent: DirectoryHandle, fileSystem: any FileSystem
    ) throws -> DirectoryHandle {
        if !parent.contains(name) {
            try fileSystem.makeDirectory(name, in: parent, permissions: 0o700)
            try fileSystem.syncDirectory(parent)
        }
        return try parent.directory(name)
    }
}
