import LedgerEntries

/// Why `credit sync` did nothing: the folder is not one this device can sync through now. What a sync tool leaves
/// in a folder that is there (conflict copies, partial downloads, strangers' files) is never this: it is left alone
/// and named in the ``SyncReport``.
public enum SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `DIR` is not there, or not a directory (a synced folder not mounted, or not there for a moment).
    case folderMissing(path: String)
    /// `DIR/credit` or a folder in it is something other than a directory (a link is not followed).
    case notAFolder(path: String, found: String)
    /// The folder is another account's: its `account.json` names `found` (nil: it has none that can be read, and
    /// its devices' files are all another account's); this data directory is `ours`.
    case anotherAccount(folder: String, found: String?, ours: String)
    /// There is no ledger in the data directory, and the folder is an account's: a device joins first.
    case notADevice(dataDirectory: String, folder: String)
    /// The ledger was made before signing: nothing in it could be checked by another device.
    case unsigned
    /// The data directory is inside the synced folder: its keys would travel with the folder.
    case dataDirectoryInFolder(dataDirectory: String, folder: String)
    /// This data directory cannot be written (a read-only mount, or no write permission): nothing is taken into
    /// it, so nothing is sent from it either.
    case readOnly(directory: String)
    /// `--recover-restored`: entry `id`, made on this device since it was restored, has the same id as an entry of
    /// the folder's copy of this device's file with other content: nothing was changed.
    case restoredEntryClashes(id: String, folder: String)

    public var description: String {
        switch self {
        case .folderMissing(let path):
            return "\(path) is not there (or is not a folder): nothing was synced. If it is a synced folder, it may "
                + "not be mounted or not synced yet"
        case .notAFolder(let path, let found):
            return "\(path) is \(found), not a folder: nothing was synced, and it was left as it is"
        case .anotherAccount(let folder, let found, let ours):
            let theirs = found.map { "account \($0)" } ?? "its devices' files verify with another key"
            return "\(folder) holds another account's ledger (\(theirs); this data directory is account "
                + "\(ours)): nothing was synced. To make this a device of that account, run `credit join` on a new "
                + "data directory with the data directory of one of its devices, then `credit sync` from there"
        case .notADevice(let dataDirectory, let folder):
            return "there is no ledger in \(dataDirectory), and \(folder) holds an account's ledger: nothing was "
                + "synced. The folder holds no key, so a new device joins from a device's data directory: run "
                + "`credit --data-dir \(dataDirectory) join DIR` with DIR the data directory of one of the account's "
                + "devices, then `credit sync` again"
        case .dataDirectoryInFolder(let dataDirectory, let folder):
            return "the data directory \(dataDirectory) is inside the synced folder \(folder): its keys would be "
                + "synced with it, to anyone the folder is shared with. Nothing was synced: keep the data directory "
                + "outside the folder (the folder holds no key, by design)"
        case .readOnly(let directory):
            return "\(directory) cannot be written (a read-only mount, or no write permission): nothing was synced"
        case .restoredEntryClashes(let id, let folder):
            return "this device's entry \(id), made since its ledger was restored, has the same id as an entry of "
                + "its file in \(folder) with other content, so the two cannot both be kept: nothing was changed. "
                + "`credit entries` shows this device's entries, and `credit verify` checks them"
        case .unsigned:
            return "this ledger was made before signing, so other devices could not check it: run `credit upgrade` "
                + "first, then `credit sync`"
        }
    }
}
