import LedgerEntries

extension Ledger {
    /// Verifies this data directory's ledger files (or `files`), with its keys and heads.
    public func verify(files: [String]? = nil, receiptCheck: ((LedgerEntry) -> String?)?) throws -> VerificationReport {
        try LedgerVerifier.verify(
            directory: directory, files: files, requiringHeadOf: files == nil && isSigned ? device : nil,
            receiptCheck: receiptCheck)
    }
}
