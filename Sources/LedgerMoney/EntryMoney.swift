import LedgerEntries

/// What one ledger entry is in the money section: the credit it gave or took back, and for a sale or a refund step
/// the money, read from its signed transaction.
public enum EntryMoney: Sendable, Equatable {
    /// A charge or a decline: counted as credit used by the feature lines.
    case use
    /// The opening: credit given free.
    case opening(credit: Int64)
    /// A top-up with no signed transaction (simulated): no money taken.
    case simulated(credit: Int64)
    /// A top-up paid for; the money nil when its receipt cannot be read.
    case sale(credit: Int64, money: MoneyLine?)
    /// A reversal: credit taken back (positive) for a refund, and that share of the sale's money.
    case refund(credit: Int64, money: MoneyLine?)
    /// A reinstatement: a reversal given back, credit and money exactly as the reversal took them.
    case reinstatement(credit: Int64, money: MoneyLine?)
}
