import DurableFiles
import LedgerEntries

extension LedgerVerifier {
    /// Verifies the ledger files in `directory` (or `files`) with its keys and heads, without opening the ledger, so
    /// that a ledger with a damaged line, which will not open, can still be checked. `device`'s head must be there.
    public static func verify(
        directory: String, files: [String]? = nil, requiringHeadOf device: String?,
        receiptCheck: ((LedgerEntry) -> String?)?
    ) throws -> VerificationReport {
        let keys = try LedgerKeys.load(from: directory)
        let publicKey = keys.headKey.publicKey
        // Every device file there now, not only those an open ledger has read.
        let ledgerDirectory = directory + "/ledger"
        let paths =
            try files
            ?? Files.list(ledgerDirectory).filter { $0.hasSuffix(".jsonl") }.map { ledgerDirectory + "/" + $0 }
        var heads: [String: SignedHead] = [:]
        var unreadable: [VerificationProblem] = []
        var unreadableOwners: Set<String> = []
        let names = (try? Files.list(directory + "/heads")) ?? []
        for name in names where name.hasSuffix(".json") {
            let owner = String(name.dropLast(5))
            do {
                if let head = try SignedHead.read(in: directory, device: owner) { heads[owner] = head }
            } catch {
                // Damaged heads are reported like forged ones, and do not stop the other checks.
                unreadableOwners.insert(owner)
                unreadable.append(
                    VerificationProblem(
                        kind: .headInvalid, file: SignedHead.path(in: directory, device: owner), line: nil,
                        detail: "the signed head of \(owner) cannot be read (\(error))"))
            }
        }
        let required = Set(device.map { [$0] } ?? []).subtracting(unreadableOwners)
        let verifier = LedgerVerifier(macKey: keys.macKey, headPublicKey: publicKey, receiptCheck: receiptCheck)
        // Cut where the last full read cut each file (the checkpoint's marks, under the ledger key).
        let hints = LedgerCheckpoint.lineHints(in: directory, macKey: keys.macKey)
        var report = try verifier.verify(files: paths, heads: heads, requireHeads: required, hints: hints)
        report.problems.append(contentsOf: unreadable)
        if files == nil {
            // A head whose device's file is gone: nothing else would show that the file was there.
            let present = Set(paths.map { String(Files.lastComponent(of: $0).dropLast(6)) })
            for owner in (heads.keys.sorted() + unreadableOwners.sorted()) where !present.contains(owner) {
                report.problems.append(
                    VerificationProblem(
                        kind: .headOrphaned, file: SignedHead.path(in: directory, device: owner), line: nil,
                        detail: "there is a signed head for device \(owner) but no ledger file \(owner).jsonl: "
                            + "the device's file was removed\(heads[owner].map { " (its head is at #\($0.sequence))" } ?? "")"
                    ))
            }
        }
        return report
    }
}
