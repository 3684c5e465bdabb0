import DurableFiles
import Signing

/// How a signed ledger keeps this device's signed head (`heads/<device>.json`): the key, and the head this ledger
/// wrote last with the file's stamp just after. While the file is still that one, what it holds is known without
/// reading it or checking its signature again (one `stat` an append instead).
///
/// A head is replaced only while the ledger's file still bears it out: one that is missing, does not verify, or
/// signed an entry the file no longer holds is evidence (entries cut off the end, an older copy restored), left
/// for `credit verify` to report and never written over. Every method runs under the ledger's lock.
struct HeadUpkeep {
    let key: P256PrivateKey
    var written: (head: SignedHead, stamp: LedgerCheckpoint.Stamp)?

    init(key: P256PrivateKey) { self.key = key }

    /// After an append to `ledger`'s own file: replaces the signed head with one for `entry` (the file's new last
    /// entry), as long as the file still bears out the head there. What it throws says what was not done.
    /// `madeFile`: the append made the file (a joined device's first entries), which has no head yet.
    mutating func keep(after entry: LedgerEntry, madeFile: Bool = false, in ledger: Ledger) throws {
        try CrashPoints.hit("head.before-write")
        let path = SignedHead.path(in: ledger.directory, device: entry.device)
        let known = written.flatMap { LedgerCheckpoint.stamp(path, name: "head") == $0.stamp ? $0.head : nil }
        written = nil
        let problem: String?
        if let known {
            problem = HeadUpkeep.replacementProblem(known, in: ledger, checkingSignatureWith: nil)
        } else {
            do {
                let current = try ledger.readHead(of: entry.device)
                problem =
                    current == nil && madeFile
                    ? nil : HeadUpkeep.replacementProblem(current, in: ledger, checkingSignatureWith: key.publicKey)
            } catch {
                problem = "\(error)"
            }
        }
        if let problem {
            // Told once: opening said so already.
            if ledger.notices.contains(where: { if case .headNotKept = $0 { true } else { false } }) { return }
            throw LedgerError.invalid("the signed head was left as it is, for `credit verify` to report: \(problem)")
        }
        let head = try SignedHead.make(for: entry, key: key)
        do {
            // The entry is durable already; the head may lag it after a power cut (one flush less an append).
            try head.write(into: try ledger.headsDirectory(), fileSystem: ledger.fileSystem, mayLag: true)
        } catch {
            throw LedgerError.invalid(
                "the signed head could not be updated (\(error)); it stays at the entry before, which `credit verify` "
                    + "notes, and catches up the next time the ledger is opened")
        }
        written = LedgerCheckpoint.stamp(path, name: "head").map { (head, $0) }
    }

    /// On opening a signed ledger: a new ledger gets its first head, and a head left behind by an interrupted write
    /// catches up. A head that cannot be read, or that the file no longer bears out, is left as it is and noted.
    func bringUpToDate(in ledger: Ledger) throws {
        let device = ledger.device
        guard ledger.isSigned, let last = ledger.lastEntry(of: device), last.mac != nil else { return }
        let head: SignedHead?
        do {
            head = try ledger.readHead(of: device)
        } catch {
            // Damaged or not a head at all: evidence for `credit verify`, and no reason to stop the app.
            ledger.note(.headNotKept(reason: "\(error)"))
            return
        }
        // A ledger of its opening entry alone and no head was being made when the process died before the head:
        // nothing can have been cut from it, so it gets its first head too. A missing head on any other ledger is
        // left for `credit verify` to report.
        let madeButNoHead = head == nil && last.sequence == 1 && last.kind == .opening
        if (ledger.wasCreated && head == nil) || madeButNoHead {
            if !ledger.wasCreated { try ledger.syncOwnFile() }
            try write(for: last, in: ledger)
        } else if let head, head.sequence != last.sequence || head.mac != last.mac {
            if let problem = HeadUpkeep.replacementProblem(head, in: ledger, checkingSignatureWith: key.publicKey) {
                ledger.note(.headNotKept(reason: problem))
            } else if head.sequence < last.sequence {
                do {
                    try ledger.syncOwnFile()
                    try write(for: last, in: ledger)
                } catch {
                    ledger.note(.headNotKept(reason: "it could not be brought up to #\(last.sequence) (\(error))"))
                }
            }
        } else if !ledger.wasCreated && last.sequence == 1 {
            // The first head may be one a killed process renamed into place and never synced: make it durable
            // before anything is appended after it, or a power loss could leave entries and no head.
            try ledger.writer.ensureDurableDirectory(ledger.directory + "/heads")
        }
    }

    /// Writes a head for `last` durably, its directory first.
    private func write(for last: LedgerEntry, in ledger: Ledger) throws {
        try ledger.writer.ensureDurableDirectory(ledger.directory + "/heads")
        try SignedHead.make(for: last, key: key).write(into: try ledger.headsDirectory(), fileSystem: ledger.fileSystem)
    }

    /// Why `ledger`'s own signed head `head` (nil: there is none) must not be replaced by a newer one, or nil when
    /// it may. A head is replaced only while the file still holds the entry it signed: one that is missing, does
    /// not verify under `publicKey` (nil when the caller wrote it itself and so knows it), or that the file no
    /// longer bears out (entries cut off the end, an older copy restored, the file rewritten from some entry on) is
    /// what `credit verify` reports, and writing over it would erase the evidence.
    static func replacementProblem(
        _ head: SignedHead?, in ledger: Ledger, checkingSignatureWith publicKey: P256PublicKey?
    ) -> String? {
        let device = ledger.device
        guard let head else {
            return "there is no signed head for this device although its file has entries: it was removed"
        }
        guard head.device == device, publicKey.map(head.isValid(for:)) ?? true else {
            return
                "\(SignedHead.path(in: ledger.directory, device: device)) does not verify with the ledger's public key"
        }
        guard let last = ledger.lastSequence(of: device), head.sequence <= last else {
            return "the head says #\(head.sequence), beyond the file's last entry: entries were cut off the end, or an "
                + "older copy was restored"
        }
        guard let signed = ledger.entry(device: device, sequence: head.sequence), signed.mac == head.mac else {
            return
                "the file's #\(head.sequence) is not the entry the head signed: the file was rewritten from there, or "
                + "another copy was restored"
        }
        return nil
    }
}
