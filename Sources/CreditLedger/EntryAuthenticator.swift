/// Makes the MAC that chains a signed ledger's entries (HMAC-SHA256 in the app; any keyed MAC in principle).
public protocol EntryAuthenticator {
    /// The MAC of `bytes`, as raw bytes.
    func authenticationCode(for bytes: [UInt8]) -> [UInt8]
}

/// Told about each entry a ledger appends to its own device file, after it is durable (to keep a signed head).
public protocol AppendObserver {
    func ledger(_ ledger: Ledger, didAppend entry: LedgerEntry) throws
}
