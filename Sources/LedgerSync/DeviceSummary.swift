import DurableFiles
import LedgerEntries
import Signing

/// One device of the account, as `credit devices` lists it.
public struct DeviceSummary: Sendable, Equatable, Codable {
    /// What the device's signed head says of its file.
    public enum HeadState: String, Sendable, Codable {
        /// The head signs the file's last entry.
        case agrees
        /// The head signs an entry the file still holds, before its last (it catches up at the next append).
        case behind
        /// There is no head.
        case missing
        /// The head does not verify, says more than the file holds, or signed an entry the file no longer holds.
        case disagrees
    }

    /// The device's id.
    public var id: String
    /// The lines of its file here (0 when it has none yet, or its file is gone).
    public var entries: Int
    /// The last sequence of its file (0 when none).
    public var lastSequence: Int64
    /// Whether its ledger file is here.
    public var hasFile: Bool
    /// Whether its signed head is here.
    public var headPresent: Bool
    /// Whether the head verifies and the file still holds the entry it signed (``HeadState/agrees`` or
    /// ``HeadState/behind``).
    public var headAgrees: Bool
    public var head: HeadState
    /// The sequence the head signs.
    public var headSequence: Int64?
    /// Whether it is the device this data directory is.
    public var isThisDevice: Bool
}

extension DeviceSummary {
    /// The account's devices as `ledger` sees them (read again first): every device with a ledger file or a signed
    /// head there, and this one, by id.
    public static func list(in ledger: Ledger) throws -> [DeviceSummary] {
        try ledger.refresh()
        let directory = ledger.directory
        let files = ledger.files
        let publicKey = try? LedgerKeys.load(from: directory).headKey.publicKey
        let headNames = ((try? Files.list(directory + "/heads")) ?? []).filter { $0.hasSuffix(".json") }
        var ids = Set(files.keys).union(headNames.map { String($0.dropLast(5)) })
        if !ledger.device.isEmpty { ids.insert(ledger.device) }
        return try ids.sorted().map { id in
            let file = files[id].flatMap { $0.lines > 0 ? $0 : nil }
            var summary = DeviceSummary(
                id: id, entries: file?.lines ?? 0, lastSequence: file?.lastSequence ?? 0, hasFile: file != nil,
                headPresent: false, headAgrees: false, head: .missing, headSequence: nil,
                isThisDevice: id == ledger.device)
            let head: SignedHead?
            do {
                head = try SignedHead.read(in: directory, device: id)
            } catch let error as LedgerError {
                _ = error
                summary.headPresent = true
                summary.head = .disagrees
                return summary
            }
            guard let head else { return summary }
            summary.headPresent = true
            summary.headSequence = head.sequence
            let signed = head.device == id && (publicKey.map(head.isValid(for:)) ?? true)
            if signed, let file, head.sequence <= file.lastSequence,
                ledger.entry(device: id, sequence: head.sequence)?.mac == head.mac
            {
                summary.head = head.sequence == file.lastSequence ? .agrees : .behind
                summary.headAgrees = true
            } else {
                summary.head = .disagrees
            }
            return summary
        }
    }
}
