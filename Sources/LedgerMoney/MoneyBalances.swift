import LedgerEntries

/// The balances above and below zero of the accounts counted, as of the as-of.
public struct MoneyBalances: Sendable, Equatable {
    public private(set) var outstanding: Int64 = 0
    public private(set) var belowZero: Int64 = 0
    public private(set) var accountsBelowZero = 0

    public init() {}

    /// Adds one account's balance (micro-credits, signed).
    public mutating func add(balance: Int64) throws {
        if balance > 0 {
            outstanding = try MicroCredits(outstanding).adding(MicroCredits(balance)).rawValue
        } else if balance < 0 {
            belowZero = try MicroCredits(belowZero).subtracting(MicroCredits(balance)).rawValue
            accountsBelowZero += 1
        }
    }

    /// Adds the balances of other accounts, added apart (on another core).
    public mutating func merge(_ other: MoneyBalances) throws {
        outstanding = try MicroCredits(outstanding).adding(MicroCredits(other.outstanding)).rawValue
        belowZero = try MicroCredits(belowZero).adding(MicroCredits(other.belowZero)).rawValue
        accountsBelowZero += other.accountsBelowZero
    }
}
