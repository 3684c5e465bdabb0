import CreditLedger

/// Everything the credit screen shows, computed from a ledger: a model, with no terminal or UI in it.
public struct CreditScreen: Sendable {
    /// The balance.
    public var balance: MicroCredits
    /// Charges less declines.
    public var used: MicroCredits
    /// Top-ups less reversals.
    public var toppedUp: MicroCredits
    /// Takings by feature over all time, the last 7 days and the last 30 days.
    public var takingsAllTime: [FeatureTakings]
    public var takings7Days: [FeatureTakings]
    public var takings30Days: [FeatureTakings]
    /// Every entry, newest first, with the running balance after it.
    public var entries: CreditScreenRows
    /// The price list.
    public var prices: [PriceItem]

    /// The sentence shown below zero, word for word from the owner's note.
    public static let belowZeroSentence = "Nothing is blocked, and nothing will be. Top up when it feels fair."

    /// Whether the balance is below zero.
    public var isBelowZero: Bool { balance < .zero }

    /// How far below zero, as a positive amount (zero when not below).
    public var overBy: MicroCredits { isBelowZero ? MicroCredits(-balance.rawValue) : .zero }

    public init(ledger: Ledger, prices: any PriceList) throws {
        balance = ledger.balance
        let totals = try LedgerTotals(of: ledger)
        used = totals.used
        toppedUp = totals.toppedUp
        takingsAllTime = try FeatureTakings.list(in: ledger)
        takings7Days = try FeatureTakings.list(in: ledger, lastDays: 7)
        takings30Days = try FeatureTakings.list(in: ledger, lastDays: 30)
        entries = try CreditScreenRows(entries: ledger.entries, oldestFirst: ledger.displayOrder)
        self.prices = prices.items
    }
}
