import LedgerEntries

/// The credit side of the money section, in micro-credits, each positive.
public struct CreditMoney: Sendable, Equatable, Codable {
    /// Credit bought with money (top-ups with a signed transaction).
    public var sold: Int64
    /// Credit of simulated top-ups: no money taken.
    public var simulated: Int64
    /// The openings: credit given free.
    public var givenFree: Int64
    /// Taken back by refunds.
    public var takenBack: Int64
    /// Given back when the store reversed a refund.
    public var reinstated: Int64
    /// Charged less given back on declines.
    public var used: Int64
    /// The balances above zero as of the as-of: credit users may still spend, a liability.
    public var outstanding: Int64
    /// The balances below zero as of the as-of: used and not paid for, what the honesty box has not collected.
    public var belowZero: Int64
    public var accountsBelowZero: Int

    public init(
        sold: Int64, simulated: Int64, givenFree: Int64, takenBack: Int64, reinstated: Int64, used: Int64,
        outstanding: Int64, belowZero: Int64, accountsBelowZero: Int
    ) {
        self.sold = sold
        self.simulated = simulated
        self.givenFree = givenFree
        self.takenBack = takenBack
        self.reinstated = reinstated
        self.used = used
        self.outstanding = outstanding
        self.belowZero = belowZero
        self.accountsBelowZero = accountsBelowZero
    }
}
