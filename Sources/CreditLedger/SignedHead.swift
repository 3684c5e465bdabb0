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
        in dataDirectory: String, fileSystem: any LedgerFileSystem = POSIXFileSystem(), mayLag: Bool = false
    ) throws {
        try fileSystem.makeDirectories(dataDirectory + "/heads")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try fileSystem.replaceAtomically(
            SignedHead.path(in: dataDirectory, device: device), with: Array(try encoder.encode(self)) + [0x0A],
            syncingDirectory: !mayLag)
    }

    /// Reads `device`'s head, or nil when there is none.
    public static func read(in dataDirectory: String, device: String) throws -> SignedHead? {
        let path = path(in: dataDirectory, device: device)
        guard POSIXFile.exists(path) else { return nil }
        do {
            return try JSONDecoder().decode(SignedHead.self, from: Data(try POSIXFile.readAll(path)))
        } catch let error as LedgerError {
            throw error
        } catch {
            throw LedgerError.invalid("\(path) is not a ledger head: \(error)")
        }
    }
}

/// Keeps this device's signed head current after each append, as long as the file still bears out the head there:
/// a head that is missing, does not verify, or signed an entry the file no longer holds is evidence (entries cut off
/// the end, an older copy restored) and is left for `credit verify` to report, never written over.
public final class HeadKeeper: AppendObserver {
    private let key: P256PrivateKey
    /// The head this keeper wrote last and the file's stamp just after: while the file is still that one, what it
    /// holds is known without reading it or checking its signature again (one `stat` an append instead).
    private var written: (head: SignedHead, stamp: LedgerCheckpoint.Stamp)?

    public init(key: P256PrivateKey) { self.key = key }

    public func ledger(_ ledger: Ledger, didAppend entry: LedgerEntry) throws {
        guard entry.macField != nil, entry.device == ledger.device,
            entry.sequence == ledger.lastSequence(of: ledger.device)
        else { return }
        try FaultInjection.hit("head.before-write")
        let path = SignedHead.path(in: ledger.directory, device: entry.device)
        let known = written.flatMap { LedgerCheckpoint.stamp(path, name: "head") == $0.stamp ? $0.head : nil }
        written = nil
        let problem: String?
        if let known {
            problem = ledger.headReplacementProblem(known, checkingSignatureWith: nil)
        } else {
            do {
                let current = try SignedHead.read(in: ledger.directory, device: entry.device)
                problem = ledger.headReplacementProblem(current, checkingSignatureWith: key.publicKey)
            } catch {
                problem = "\(error)"
            }
        }
        if let problem {
            // Told once: opening said so already.
            if ledger.notices.contains(where: { if case .headNotKept = $0 { true } else { false } }) { return }
            throw LedgerError.invalid(
                "the signed head was left as it is, for `credit verify` to report: \(problem)")
        }
        let head = try SignedHead.make(for: entry, key: key)
        do {
            // The entry is durable already; the head may lag it after a power cut (one flush less an append).
            try head.write(in: ledger.directory, fileSystem: ledger.fileSystem, mayLag: true)
        } catch {
            throw LedgerError.invalid(
                "the signed head could not be updated (\(error)); it stays at the entry before, which `credit verify` "
                    + "notes, and catches up the next time the ledger is opened")
        }
        written = LedgerCheckpoint.stamp(path, name: "head").map { (head, $0) }
    }
}
