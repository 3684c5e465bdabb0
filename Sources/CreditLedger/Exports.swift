// The ledger's rooms, one import: `import CreditLedger` gives every room's public API, as it did when they were one
// target (as swift-nio's NIO re-exports NIOCore).
@_exported import LedgerEntries
@_exported import LedgerMoney
@_exported import LedgerSync
@_exported import LedgerVerification
