import DurableFiles
import LedgerEntries
import Signing

extension AccountSync {
    /// Keeps this device in step with the account's other devices through a folder that something else syncs.
    ///
    /// Every other device's file found in the folder is taken the way ``merge(files:)`` takes a file: whole, only
    /// when every line verifies under this account's key and the chain holds, and agreeing with what is here; every
    /// entry once. A file that does not (a sync tool's partial download or conflict copy, another account's file, a
    /// forged line, a link) is left alone and named in the report, and the rest are taken all the same. Then this
    /// device's own file and signed head are written into the folder, each replaced atomically; no other device's
    /// file is ever written. `memo` carries what a device that keeps syncing has judged already, so a file seen
    /// again unchanged is neither read again nor named again.
    ///
    /// This device's own file there that forks from this ledger (the ledger restored from an older copy and used
    /// since) is left as it is and said so (``LeftAlone/Reason/ownFileRestored(_:folder:)``); with
    /// `recoveringRestored`, both are kept instead (``recoverRestoredLocked(from:_:folder:keys:)``).
    ///
    /// Throws a ``SyncError`` when the folder is not one to sync through now (not there, another account's), and
    /// nothing is written anywhere.
    public func sync(through folder: SyncFolder, memo: inout SyncMemo, recoveringRestored: Bool = false) throws
        -> SyncReport
    {
        guard !ledger.isReadOnly else { throw SyncError.readOnly(directory: ledger.directory) }
        guard ledger.isSigned else { throw SyncError.unsigned }
        if folder.contains(ledger.directory) {
            throw SyncError.dataDirectoryInFolder(dataDirectory: ledger.directory, folder: folder.root)
        }
        let keys = try LedgerKeys.load(from: ledger.directory)
        let account = SyncFolder.accountID(for: keys.headKey.publicKey)
        // Every directory of the folder opened once for the round; everything below goes through them.
        let opened = try folder.opened(fileSystem: ledger.fileSystem)
        let accountFile = try opened.prepare(account: account)
        var report = SyncReport(folder: folder.root)
        var inputs: [MergeInput] = []
        var ownCopy: MergeInput?
        var ownCopyDisagrees = false
        for candidate in try opened.candidates() where memo.judged[candidate.path] != candidate.stamp {
            memo.judged[candidate.path] = candidate.stamp
            switch judge(candidate, in: opened, keys: keys) {
            case .left(let reason):
                // This device's name over a file that is not its chain (cut, forged, another's) is replaced below.
                report.leftAlone.append(LeftAlone(file: candidate.path, reason: reason))
            case .taken(let input):
                if candidate.named == nil, let device = input.device {
                    report.leftAlone.append(LeftAlone(file: candidate.path, reason: .copy(device: device)))
                }
                if candidate.named == device { ownCopy = input }
                inputs.append(input)
            }
        }
        if accountFile == .missingOrUnreadable {
            // With no account file to say whose the folder is, its files do: one that verifies under this
            // account's key makes it this account's; only strangers' files make it another's.
            let strangers = report.leftAlone.contains { $0.reason == .anotherAccount }
            if strangers && inputs.isEmpty {
                throw SyncError.anotherAccount(folder: folder.root, found: nil, ours: account)
            }
            try opened.writeAccountFile(account, fileSystem: ledger.fileSystem)
        }
        try ledger.withLock {
            try ledger.refreshLocked()
            var restored = ownCopy.flatMap(restoredFork(with:))
            if let fork = restored, let copy = ownCopy, recoveringRestored {
                report.recovered = try recoverRestoredLocked(from: copy, fork, folder: folder.root, keys: keys)
                restored = nil
            }
            let disagreeing = try takeLocked(inputs, keys: keys, into: &report)
            for (input, detail) in disagreeing {
                memo.judged[input.path] = nil
                let ours = input.device == device
                if ours { ownCopyDisagrees = true }
                let reason: LeftAlone.Reason =
                    !ours
                    ? .disagrees(detail)
                    : restored.map { .ownFileRestored($0, folder: folder.root) } ?? .ownFileDisagrees(detail)
                report.leftAlone.append(LeftAlone(file: input.path, reason: reason))
            }
            try publishLocked(
                to: opened, copyThere: ownCopy, heldBack: ownCopyDisagrees, memo: &memo, report: &report)
        }
        report.balance = ledger.balance.rawValue
        return report
    }

    /// What a sync makes of one file in the folder: taken (checked whole), or left alone and why.
    private enum Judgement {
        case taken(MergeInput)
        case left(LeftAlone.Reason)
    }

    /// Checks one file of the folder whole, with its device's head when the folder has one that agrees. A head
    /// that does not (ahead of its file while the rest is on its way, or not a head at all) is no reason to refuse
    /// the file: every line of it verifies on its own, and this device signs its own head for what it takes.
    private func judge(_ candidate: SyncCandidate, in folder: OpenSyncFolder, keys: LedgerKeys) -> Judgement {
        if let problem = candidate.problem { return .left(problem) }
        if candidate.size == 0 { return .left(.empty) }
        let head = candidate.named.flatMap { try? SignedHead.read(from: folder.heads, device: $0) }
        do {
            var input: MergeInput
            do {
                input = try MergeInput.checked(
                    path: candidate.path, head: head, headPath: nil, macKey: keys.macKey,
                    publicKey: keys.headKey.publicKey, in: folder.ledger)
            } catch let refusal as MergeRefusal where head != nil && refusal.isAboutTheHead {
                input = try MergeInput.checked(
                    path: candidate.path, head: nil, headPath: nil, macKey: keys.macKey,
                    publicKey: keys.headKey.publicKey, in: folder.ledger)
            }
            guard let found = input.device else { return .left(.empty) }
            if let named = candidate.named, named != found { return .left(.misnamed(named: named, holds: found)) }
            return .taken(input)
        } catch let refusal as MergeRefusal {
            switch refusal.reason {
            case .cut: return .left(.cut(line: refusal.line ?? 1))
            case .otherAccount: return .left(.anotherAccount)
            default: return .left(.doesNotVerify((refusal.line.map { "line \($0): " } ?? "") + refusal.why))
            }
        } catch let error as FileError {
            return .left(.notAFile(found: error.found ?? "a file that cannot be read (\(error.description))"))
        } catch {
            return .left(.doesNotVerify("\(error)"))
        }
    }

    /// Takes every input that agrees with what is here (each checked against the union so far, so one that
    /// disagrees is left out alone), writes what joined, and keeps the merged devices' heads. Returns the inputs
    /// left out, with why.
    private func takeLocked(_ inputs: [MergeInput], keys: LedgerKeys, into report: inout SyncReport) throws
        -> [(MergeInput, String)]
    {
        var union = LedgerUnion(existing: ledger.entries)
        var writes: [(device: String, bytes: [UInt8])] = []
        var left: [(MergeInput, String)] = []
        var kept: [MergeInput] = []
        for input in inputs {
            guard let device = input.device else { continue }
            let before = union
            let lines = input.lines
            let joined = union.add(
                device: device, incoming: lines.map(\.entry), lines: lines.map(\.line), source: input.path)
            if union.report.problems.count > before.report.problems.count {
                left.append((input, union.report.problems[before.report.problems.count]))
                union = before
                continue
            }
            kept.append(input)
            guard !joined.isEmpty else { continue }
            writes.append((device, input.bytes(of: joined, in: lines)))
        }
        try appendJoinedLocked(writes)
        report.taken = union.report.added
        report.receiptsCountedOnce = union.report.receiptsCountedOnce
        report.headsKept = try keepMergedHeadsLocked(kept, key: keys.headKey)
        return left
    }

    /// Writes this device's file and signed head into the folder when the copy there is not this device's file as
    /// it is now, each replaced atomically. A copy there that disagrees with this ledger is evidence, not replaced.
    private func publishLocked(
        to folder: OpenSyncFolder, copyThere: MergeInput?, heldBack: Bool, memo: inout SyncMemo,
        report: inout SyncReport
    ) throws {
        let last = ledger.lastEntry(of: device)
        report.ownSequence = last?.sequence ?? 0
        if heldBack {
            report.ownFile = .heldBack
            return
        }
        // A device joined and not used yet has no file of its own: nothing to send.
        guard let last else { return }
        let name = device + ".jsonl"
        let target = folder.ledger.path(of: name)
        let stampThere = try folder.ledger.status(of: name).map(SyncMemo.Stamp.init)
        let upToDate: Bool
        if let copyThere {
            let end = copyThere.lines.last?.entry
            upToDate = end?.sequence == last.sequence && end?.mac == last.mac
        } else if let known = memo.ownFile, let stampThere {
            upToDate = known.stamp == stampThere && known.sequence == report.ownSequence
        } else {
            upToDate = false
        }
        let head = try ledger.readHead(of: device)
        let headThere = try? SignedHead.read(from: folder.heads, device: device)
        if upToDate {
            report.ownFile = .upToDate
            if let stampThere { memo.ownFile = .init(stamp: stampThere, sequence: report.ownSequence) }
            if let head, head != headThere { try head.write(into: folder.heads, fileSystem: ledger.fileSystem) }
            return
        }
        let bytes = try ledger.readOwnFile()
        try ledger.fileSystem.replaceAtomically(
            name, in: folder.ledger, with: bytes, mode: 0o600, syncingDirectory: true)
        if let head, head != headThere { try head.write(into: folder.heads, fileSystem: ledger.fileSystem) }
        report.ownFile = .sent
        if let written = try folder.ledger.status(of: name).map(SyncMemo.Stamp.init) {
            memo.ownFile = .init(stamp: written, sequence: report.ownSequence)
            memo.judged[target] = written
        }
    }
}

extension MergeRefusal {
    /// Whether the refusal is about the head that came with the file, not the file.
    var isAboutTheHead: Bool {
        if case .head = reason { true } else { false }
    }
}
