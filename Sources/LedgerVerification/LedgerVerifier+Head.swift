import LedgerEntries
import Signing

extension LedgerVerifier {
    /// Where a file's chain ends: its last sequence and MAC that took their place.
    package struct ChainEnd: Equatable {
        var lastSequence: Int64
        var lastMAC: String

        package init(lastSequence: Int64, lastMAC: String) {
            self.lastSequence = lastSequence
            self.lastMAC = lastMAC
        }
    }

    /// What the head check found: problems, or a note (a head behind the file, which is no problem).
    package struct HeadFinding: Equatable {
        package var problems: [VerificationProblem] = []
        var note: String?
    }

    /// Checks the end of `file` (`device`'s, its chain ending at `end`) against the device's signed `head`:
    /// truncation and rollback show only against it. A head that does not verify under `publicKey`, says more than
    /// the file holds, or signed an entry the file no longer holds is a problem; one behind the file whose entry is
    /// still there is a note. No head is a problem when one is `required`.
    package static func checkHead(
        _ head: SignedHead?, required: Bool, device: String, file: ReadFile, end: ChainEnd,
        publicKey: P256PublicKey?
    ) -> HeadFinding {
        var finding = HeadFinding()
        func problem(_ kind: VerificationProblem.Kind, _ line: Int?, _ detail: String) {
            finding.problems.append(VerificationProblem(kind: kind, file: file.path, line: line, detail: detail))
        }
        let lastSequence = end.lastSequence
        guard let head else {
            if required {
                problem(.headMissing, nil, "there is no signed head for \(device), so truncation cannot be ruled out")
            }
            return finding
        }
        if let publicKey, !head.isValid(for: publicKey) {
            problem(.headInvalid, nil, "the signed head of \(device) does not verify with the ledger's public key")
        } else if head.sequence > lastSequence {
            let count = head.sequence - lastSequence
            problem(
                .truncated, file.lines.count,
                "the head says #\(head.sequence) but the file ends at #\(lastSequence): \(count) entr\(count == 1 ? "y was" : "ies were") cut off the end, or an older copy was restored"
            )
        } else if head.sequence == lastSequence && head.mac != end.lastMAC {
            problem(
                .changed, file.lines.count,
                "the last entry #\(lastSequence) is not the one the head signed: an older or other copy was restored")
        } else if head.sequence < lastSequence,
            LedgerVerifier.entry(device: device, sequence: head.sequence, in: file)?.mac != head.mac
        {
            problem(
                .changed, file.lines.count,
                "the head signed #\(head.sequence), which the file no longer holds: the entries from #\(head.sequence) on were cut off and written again, or another copy was restored"
            )
        } else if head.sequence < lastSequence {
            finding.note =
                "\(file.path): the head is at #\(head.sequence), behind the file's #\(lastSequence); the entries after it verify in the chain (an interrupted write, or written by a copy of this device)"
        }
        return finding
    }
}
