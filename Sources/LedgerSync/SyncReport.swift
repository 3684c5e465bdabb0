import LedgerEntries

/// What one `credit sync` did: what it took from other devices' files in the folder, whether this device's own
/// file there is up to date, and what it left alone.
public struct SyncReport: Sendable, Equatable, Encodable {
    /// The folder synced through (`DIR`).
    public var folder: String
    /// Entries taken, by device.
    public var taken: [String: Int] = [:]
    /// What this device's own file in the folder is after the sync.
    public var ownFile: OwnFile = .upToDate
    /// This device's last sequence, as its file in the folder now holds it (unless ``ownFile`` is `heldBack`).
    public var ownSequence: Int64 = 0
    /// Devices whose signed heads this sync took or brought up to date here.
    public var headsKept: [String] = []
    /// Top-ups that came crediting a store transaction another top-up already credits: counted once.
    public var receiptsCountedOnce: [String] = []
    /// Files in the folder that were not taken (or were a sync tool's copies), each named once, with why.
    public var leftAlone: [LeftAlone] = []
    /// The balance after the sync, in micro-credits.
    public var balance: Int64 = 0
    /// What `--recover-restored` did, when this device's ledger had been restored from an older copy and used since.
    public var recovered: RestoredRecovery?

    public init(folder: String) { self.folder = folder }

    /// What became of this device's own file in the folder.
    public enum OwnFile: String, Sendable, Equatable, Encodable {
        /// It was already this device's file as it is.
        case upToDate = "up-to-date"
        /// It was written (replaced whole, atomically), with the signed head.
        case sent
        /// It was left as it is: the copy there holds entries of this device that disagree with this ledger.
        case heldBack = "held-back"
    }

    /// Entries taken in all.
    public var takenCount: Int { taken.values.reduce(0, +) }

    /// Whether the sync changed nothing here or in the folder.
    public var changedNothing: Bool { taken.isEmpty && ownFile != .sent && headsKept.isEmpty && recovered == nil }

    private enum Key: String, CodingKey {
        case folder, taken, takenCount, ownFile, ownSequence, headsKept, receiptsCountedOnce, leftAlone, balance
        case changedNothing, recovered
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(folder, forKey: .folder)
        try container.encode(taken, forKey: .taken)
        try container.encode(takenCount, forKey: .takenCount)
        try container.encode(ownFile, forKey: .ownFile)
        try container.encode(ownSequence, forKey: .ownSequence)
        try container.encode(headsKept, forKey: .headsKept)
        try container.encode(receiptsCountedOnce, forKey: .receiptsCountedOnce)
        try container.encode(leftAlone, forKey: .leftAlone)
        try container.encode(balance, forKey: .balance)
        try container.encode(changedNothing, forKey: .changedNothing)
        try container.encode(recovered, forKey: .recovered)
    }
}

/// A file in a synced folder that a sync did not take whole, or that is a sync tool's copy: where, and why.
public struct LeftAlone: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// Why a file was left alone.
    public enum Reason: Sendable, Equatable {
        /// Zero bytes: a download not finished.
        case empty
        /// Its last line (this one) has no newline: still being copied.
        case cut(line: Int)
        /// A symbolic link, or not a regular file (`found`): never followed.
        case notAFile(found: String)
        /// No MAC in it verifies with this account's key.
        case anotherAccount
        /// It does not verify as one device's chain (a forged line, a gap, an unreadable line): why.
        case doesNotVerify(String)
        /// It verifies but disagrees with this ledger (a fork, an id with other content): why.
        case disagrees(String)
        /// A sync tool's copy of `device`'s file (a conflict copy): what verifies in it was taken; left in place.
        case copy(device: String)
        /// Named for `named`'s file, it holds `holds`'s entries.
        case misnamed(named: String, holds: String)
        /// A name that is not a device's file (`<device>.jsonl`) nor a copy of one.
        case notALedgerName
        /// This device's own file in the folder disagrees with this ledger: left as it is, and not replaced.
        case ownFileDisagrees(String)
        /// This device's ledger was restored from an older copy and used since: the folder's copy of its file and
        /// this ledger share its entries up to `fork.common`, then each goes on its own way. Left as it is;
        /// `credit sync FOLDER --recover-restored` keeps both.
        case ownFileRestored(RestoredFork, folder: String)
    }

    public var file: String
    public var reason: Reason

    public init(file: String, reason: Reason) {
        self.file = file
        self.reason = reason
    }

    /// A word for scripts.
    public var kind: String {
        switch reason {
        case .empty: "empty"
        case .cut: "cut"
        case .notAFile: "not-a-file"
        case .anotherAccount: "another-account"
        case .doesNotVerify: "does-not-verify"
        case .disagrees: "disagrees"
        case .copy: "copy"
        case .misnamed: "misnamed"
        case .notALedgerName: "not-a-ledger-name"
        case .ownFileDisagrees: "this-device-disagrees"
        case .ownFileRestored: "this-device-restored"
        }
    }

    /// Why, in words.
    public var why: String {
        switch reason {
        case .empty: "it is empty (a download not finished?); it is taken when it is whole"
        case .cut(let line):
            "its last line (line \(line)) is cut short (still being copied?); it is taken when it is whole"
        case .notAFile(let found): "it is \(found), not a file; it was not followed"
        case .anotherAccount: "it is another account's file: nothing in it verifies with this account's key"
        case .doesNotVerify(let detail): "it does not verify, so nothing was taken from it: \(detail)"
        case .disagrees(let detail):
            "it verifies but disagrees with this ledger, so nothing was taken from it: \(detail)"
        case .copy(let device): "a sync tool's copy of device \(device)'s file: what is in it is here; left in place"
        case .misnamed(let named, let holds): "named for device \(named), it holds device \(holds)'s entries"
        case .notALedgerName: "not a device's file (those are named <device>.jsonl)"
        case .ownFileDisagrees(let detail):
            "this device's file in the folder disagrees with this ledger, so it was left as it is and not replaced "
                + "(run `credit verify`): \(detail)"
        case .ownFileRestored(let fork, let folder): fork.words(folder: folder)
        }
    }

    public var description: String { "\(file): \(why)" }

    private enum Key: String, CodingKey { case file, kind, why }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(file, forKey: .file)
        try container.encode(kind, forKey: .kind)
        try container.encode(why, forKey: .why)
    }
}
