import DurableFiles
import Foundation
import Signing

/// A device's signed head, kept outside the log (`heads/<device>.json`): its last sequence, last MAC and balance,
/// signed with the owner's P-256 key. Cutting entries off the end, or restoring an older copy of the file, leaves
/// the log shorter than its head, which `credit verify` reports.
public struct SignedHead: Codable, Sendable, Equatable {
    public var device: String
    public var sequence: Int64
    public var mac: String
    public var balance: Int64
    public var time: String
    /// Base64url raw r||s ECDSA P-256 signature over ``signedBytes``.
    public var signature: String

    /// The exact bytes signed: the fields in a fixed order, one per line.
    public var signedBytes: [UInt8] {
        Array("voicedebrief-ledger-head-v1\n\(device)\n\(sequence)\n\(mac)\n\(balance)\n\(time)\n".utf8)
    }

    public static func path(in dataDirectory: String, device: String) -> String {
        dataDirectory + "/heads/" + device + ".json"
    }

    /// Makes and signs the head for `entry`, the last of its device.
    public static func make(for entry: LedgerEntry, key: P256PrivateKey) throws -> SignedHead {
        guard let mac = entry.mac else { throw LedgerError.invalid("an unsigned entry has no head") }
        var head = SignedHead(
            device: entry.device, sequence: entry.sequence, mac: mac, balance: entry.balanceAfter.rawValue,
            time: entry.time.iso8601, signature: "")
        head.signature = Base64URL.encode(try key.signature(for: head.signedBytes))
        return head
    }

    /// Whether the signature holds for `publicKey`.
    public func isValid(for publicKey: P256PublicKey) -> Bool {
        guard let raw = Base64URL.decode(signature) else { return false }
        return publicKey.isValidSignature(raw, for: signedBytes)
    }

    /// Writes the head atomically (tmp, fsync, rename, directory fsync) through `fileSystem`. With `mayLag`, the
    /// directory is not synced: a power cut may then keep the head before this one, which is one `credit verify`
    /// accepts (behind the file, matching the entry it signed) and the next open brings up.
    public func write(
        in dataDirectory: String, fileSystem: any FileSystem = SystemFileSystem(), mayLag: Bool = false
    ) throws {
        // The device names the file: never a path.
        if let problem = DeviceID.problem(with: device) { throw LedgerError.invalid("a head of \(problem)") }
        try fileSystem.makeDirectories(dataDirectory + "/heads")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try fileSystem.replaceAtomically(
            SignedHead.path(in: dataDirectory, device: device), with: Array(try encoder.encode(self)) + [0x0A],
            syncingDirectory: !mayLag)
    }

    /// ``write(in:fileSystem:mayLag:)`` into the heads directory held open (`heads/`), through its descriptor: a
    /// directory swapped for a link meanwhile receives nothing.
    public func write(
        into heads: DirectoryHandle, fileSystem: any FileSystem = SystemFileSystem(), mayLag: Bool = false
    )
        throws
    {
        if let problem = DeviceID.problem(with: device) { throw LedgerError.invalid("a head of \(problem)") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try fileSystem.replaceAtomically(
            device + ".json", in: heads, with: Array(try encoder.encode(self)) + [0x0A], syncingDirectory: !mayLag)
    }

    /// ``read(in:device:)`` from the heads directory held open (`heads/`), through its descriptor.
    public static func read(from heads: DirectoryHandle, device: String) throws -> SignedHead? {
        if let problem = DeviceID.problem(with: device) { throw LedgerError.invalid("no head: \(problem)") }
        let name = device + ".json"
        guard heads.contains(name) else { return nil }
        return try decode(try heads.readAll(name, limit: largestFile), path: heads.path(of: name))
    }

    /// The head `bytes` (read from `path`) hold; one that is not a head is refused in plain words naming the file
    /// and what is wrong ("PATH is not a signed head: \"device\" is missing"), never the decoder's own.
    private static func decode(_ bytes: [UInt8], path: String) throws -> SignedHead {
        do {
            return try JSONDecoder().decode(SignedHead.self, from: Data(bytes))
        } catch {
            throw LedgerError.invalid("\(path) is not a signed head: \(DecodingWords.describe(error))")
        }
    }

    /// The most a head file may hold (one is about 300 bytes): a larger one is refused unread, so a head a sync tool
    /// or someone else made as large as the disk costs no memory.
    public static let largestFile = 64 * 1024

    /// Reads `device`'s head, or nil when there is none.
    public static func read(in dataDirectory: String, device: String) throws -> SignedHead? {
        if let problem = DeviceID.problem(with: device) { throw LedgerError.invalid("no head: \(problem)") }
        let path = path(in: dataDirectory, device: device)
        guard Files.exists(path) else { return nil }
        // A head that cannot be read is an I/O failure (a FileError), not a malformed head.
        return try decode(try Files.readAll(path, limit: largestFile), path: path)
    }
}
