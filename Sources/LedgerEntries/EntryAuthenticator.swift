/// Makes the MAC that chains a signed ledger's entries (HMAC-SHA256 in the app; any keyed MAC in principle).
public protocol EntryAuthenticator {
    /// The MAC of `bytes`, as raw bytes.
    func authenticationCode(for bytes: [UInt8]) -> [UInt8]
}

/// Told about each entry a ledger appends to its own device file, after it is durable (and after the ledger has
/// kept its signed head and checkpoint up, which it does itself).
/// What it throws does not undo or fail the append (the entry is on disk): the ledger reports it as a
/// ``LedgerNotice/followUpFailed(id:reason:)``, so the error should say what was not done and what happens next.
public protocol AppendObserver {
    func ledger(_ ledger: Ledger, didAppend entry: LedgerEntry) throws
}
