import LedgerEntries

/// The money section of one period of the P&L (`credit pnl`, JSON key `money` in each period): what was paid, what
/// the tax and the store took, what is left, what refunds took back, the credit sold, given and used, what is still
/// owed in credit and what the honesty box has not collected, and each feature's share of the proceeds.
///
/// Money is in whole micro-units of its currency (a millionth of a pound, of a dollar), one line per currency and
/// never converted; credit is in micro-credits (millionths of a pound). Flows (top-ups, refunds, credit sold, given
/// and used) are those written in the period; ``CreditMoney/outstanding`` and ``CreditMoney/belowZero`` are the
/// balances as of the report's as-of, the same in every period. Every figure rests on placeholders (the commission
/// and the tax table, as the prices and costs).
///
/// ```json
/// { "commission": { "name": "small-business", "basisPoints": 1500 } | null, "placeholders": true,
///   "accountsCounted": 1, "accountsWithoutMoney": 0, "featureMethod": "share-of-credit-used",
///   "simulatedTopUps": 0,
///   "credit": { "sold", "simulated", "givenFree", "takenBack", "reinstated", "used", "outstanding", "belowZero",
///               "accountsBelowZero" },
///   "currencies": [ { "currency": "GBP", "topUps", "gross", "tax", "commission", "proceeds", "refunds",
///                     "refundedGross", "refunded", "reinstatements", "reinstated", "kept", "taxUnknownTopUps",
///                     "taxUnknownGross", "features": [ { "feature", "used", "proceeds", "cost", "margin" } ] } ] }
/// ```
public struct PeriodMoney: Sendable, Equatable, Codable {
    /// How a feature's proceeds are worked out: its share of the credit used (net of declines) in the period.
    public static let featureMethodName = "share-of-credit-used"

    /// The commission the figures were worked out with; nil when the accounts counted used different rates.
    public var commission: CommissionRate?
    public var placeholders: Bool
    /// Accounts whose money is counted (1 for a ledger).
    public var accountsCounted: Int
    /// Accounts counted in the feature lines whose summaries carry no money (exported before money was summarised).
    public var accountsWithoutMoney: Int
    public var featureMethod: String = PeriodMoney.featureMethodName
    /// Top-ups with no signed transaction: simulated, no money taken.
    public var simulatedTopUps: Int64
    public var credit: CreditMoney
    /// By currency code.
    public var currencies: [CurrencyMoney]

    public init(
        commission: CommissionRate?, placeholders: Bool, accountsCounted: Int, accountsWithoutMoney: Int,
        simulatedTopUps: Int64, credit: CreditMoney, currencies: [CurrencyMoney]
    ) {
        self.commission = commission
        self.placeholders = placeholders
        self.accountsCounted = accountsCounted
        self.accountsWithoutMoney = accountsWithoutMoney
        self.simulatedTopUps = simulatedTopUps
        self.credit = credit
        self.currencies = currencies
    }

    private enum CodingKeys: String, CodingKey {
        case commission, placeholders, accountsCounted, accountsWithoutMoney, featureMethod, simulatedTopUps, credit
        case currencies
    }

    // By hand so that `commission` is `null` when mixed, never missing: a stable shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(commission, forKey: .commission)
        try container.encode(placeholders, forKey: .placeholders)
        try container.encode(accountsCounted, forKey: .accountsCounted)
        try container.encode(accountsWithoutMoney, forKey: .accountsWithoutMoney)
        try container.encode(featureMethod, forKey: .featureMethod)
        try container.encode(simulatedTopUps, forKey: .simulatedTopUps)
        try container.encode(credit, forKey: .credit)
        try container.encode(currencies, forKey: .currencies)
    }
}
