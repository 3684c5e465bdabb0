import DurableFiles
import LedgerEntries
import Platform

/// One file found in a synced folder's `ledger/`: a device's file, a sync tool's copy of one, or something left alone.
struct SyncCandidate {
    /// Its path, for the report and the memo.
    let path: String
    /// Its name in `ledger/`, for reading it through the directory opened.
    let name: String
    /// The device its name says (`<device>.jsonl`), or nil for a copy or a stranger.
    let named: String?
    /// What is wrong with it from its listing alone (a link, a name that is no device's file), or nil.
    let problem: LeftAlone.Reason?
    /// What identifies its content now: a sync seeing the same again skips it.
    let stamp: SyncMemo.Stamp
    /// Its size in bytes.
    var size: Int64 { stamp.size }
}

extension OpenSyncFolder {
    /// Every file in `ledger/` but hidden ones (temporary files: this program's, a sync tool's), read by `lstat`
    /// through the directory opened.
    func candidates() throws -> [SyncCandidate] {
        var found: [SyncCandidate] = []
        for name in try ledger.names() where !name.hasPrefix(".") {
            let path = folder.ledgerDirectory + "/" + name
            // Gone since the listing: a device's file that went away changes nothing here.
            guard let info = try ledger.status(of: name) else { continue }
            let stamp = SyncMemo.Stamp(info)
            if info.st_mode & S_IFMT != S_IFREG {
                found.append(
                    SyncCandidate(
                        path: path, name: name, named: nil, problem: .notAFile(found: Files.kind(of: info.st_mode)),
                        stamp: stamp))
            } else if name.hasSuffix(".jsonl"), DeviceID.isValid(String(name.dropLast(6))) {
                found.append(
                    SyncCandidate(path: path, name: name, named: String(name.dropLast(6)), problem: nil, stamp: stamp))
            } else if SyncFolder.looksLikeCopy(name) {
                found.append(SyncCandidate(path: path, name: name, named: nil, problem: nil, stamp: stamp))
            } else {
                found.append(SyncCandidate(path: path, name: name, named: nil, problem: .notALedgerName, stamp: stamp))
            }
        }
        return found
    }

}

extension SyncFolder {
    /// Whether `name` is what sync tools make of a device's file: `x (conflicted copy …).jsonl` (Dropbox,
    /// Nextcloud), `x.sync-conflict-….jsonl` (Syncthing), `x 2.jsonl` (iCloud Drive), `x.jsonl.orig` and the like.
    static func looksLikeCopy(_ name: String) -> Bool {
        name.contains(".jsonl") || name.contains("conflict")
    }
}
