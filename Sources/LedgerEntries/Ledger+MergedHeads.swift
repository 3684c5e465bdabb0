import DurableFiles
import Signing

extension Ledger {
    /// On opening a signed ledger: every other device's signed head kept here (`heads/<device>.json`, from a join,
    /// a merge or a sync) that its file here no longer bears out is noted. A merged device's file that was cut
    /// short, or replaced by an older copy, is still read and counted as it is, but every command that uses it
    /// says so (``LedgerNotice/mergedFileBehindHead(device:file:headSequence:fileSequence:)``,
    /// ``LedgerNotice/mergedFileRewritten(device:file:headSequence:)``). A head that cannot be read or does not
    /// verify under this account's key is no evidence of anything here: `credit verify` reports it. Runs under the
    /// lock, after the ledger is read; the signature is checked only for a head that disagrees.
    func noteMergedHeadsLocked(publicKey: P256PublicKey) {
        guard let names = try? Files.list(directory + "/heads") else { return }
        for name in names.sorted() where name.hasSuffix(".json") {
            let id = String(name.dropLast(5))
            guard id != device, let head = try? SignedHead.read(in: directory, device: id), head.device == id,
                let notice = mergedHeadNotice(head), head.isValid(for: publicKey)
            else { continue }
            note(notice)
        }
    }

    /// What `head` (another device's, kept here) says of its file here, or nil when the file bears it out.
    private func mergedHeadNotice(_ head: SignedHead) -> LedgerNotice? {
        let device = head.device
        let file = path(forDevice: device)
        let last = files[device].map { $0.lines > 0 ? $0.lastSequence : 0 } ?? 0
        guard head.sequence <= last else {
            return .mergedFileBehindHead(
                device: device, file: file, headSequence: head.sequence, fileSequence: last)
        }
        guard let signed = entry(device: device, sequence: head.sequence), signed.mac == head.mac else {
            return .mergedFileRewritten(device: device, file: file, headSequence: head.sequence)
        }
        return nil
    }

    /// Whether a notice says that another device's file here is not what its signed head says it was.
    var hasMergedHeadNotice: Bool {
        notices.contains {
            switch $0 {
            case .mergedFileBehindHead, .mergedFileRewritten: true
            default: false
            }
        }
    }
}
