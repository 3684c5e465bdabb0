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
    public var commission: CommissionFigure?
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
        commission: CommissionFigure?, placeholders: Bool, accountsCounted: Int, accountsWithoutMoney: Int,
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

/// A commission as the money section names it.
public struct CommissionFigure: Sendable, Equatable, Codable {
    public var name: String
    public var basisPoints: Int

    public init(name: String, basisPoints: Int) {
        self.name = name
        self.basisPoints = basisPoints
    }
}

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

/// One currency's money, in micro-units of it.
public struct CurrencyMoney: Sendable, Equatable, Codable {
    public var currency: String
    /// Top-ups paid in it, with their gross; tax, commission and proceeds of those whose tax is known.
    public var topUps: Int64
    public var gross: Int64
    public var tax: Int64
    public var commission: Int64
    public var proceeds: Int64
    /// Refund steps (reversals), the gross they gave back, and the proceeds they took back (tax known only).
    public var refunds: Int64
    public var refundedGross: Int64
    public var refunded: Int64
    /// Refunds the store reversed, and the proceeds they gave back.
    public var reinstatements: Int64
    public var reinstated: Int64
    /// Proceeds less refunded plus reinstated: what the period's sales leave.
    public var kept: Int64
    /// Top-ups from storefronts whose tax is not in the settings, and their gross: no proceeds worked out for them.
    public var taxUnknownTopUps: Int64
    public var taxUnknownGross: Int64
    /// Each feature's share of ``kept``.
    public var features: [FeatureMoney]

    public init(
        currency: String, topUps: Int64, gross: Int64, tax: Int64, commission: Int64, proceeds: Int64, refunds: Int64,
        refundedGross: Int64, refunded: Int64, reinstatements: Int64, reinstated: Int64, kept: Int64,
        taxUnknownTopUps: Int64, taxUnknownGross: Int64, features: [FeatureMoney]
    ) {
        self.currency = currency
        self.topUps = topUps
        self.gross = gross
        self.tax = tax
        self.commission = commission
        self.proceeds = proceeds
        self.refunds = refunds
        self.refundedGross = refundedGross
        self.refunded = refunded
        self.reinstatements = reinstatements
        self.reinstated = reinstated
        self.kept = kept
        self.taxUnknownTopUps = taxUnknownTopUps
        self.taxUnknownGross = taxUnknownGross
        self.features = features
    }
}

/// One feature's proceeds in one currency: ``PeriodMoney/featureMethodName``, the currency's kept proceeds times the
/// feature's credit used over all credit used in the period, rounded as ``MoneySplit`` rounds (none when no credit
/// was used). Its cost and margin only in pounds, the cost list's currency (nil in any other: never converted).
public struct FeatureMoney: Sendable, Equatable, Codable {
    public var feature: String
    /// Credit used: charged less given back, micro-credits.
    public var used: Int64
    public var proceeds: Int64
    public var cost: Int64?
    public var margin: Int64?

    public init(feature: String, used: Int64, proceeds: Int64, cost: Int64?, margin: Int64?) {
        self.feature = feature
        self.used = used
        self.proceeds = proceeds
        self.cost = cost
        self.margin = margin
    }

    private enum CodingKeys: String, CodingKey { case feature, used, proceeds, cost, margin }

    // By hand so that `cost` and `margin` are `null` in another currency, never missing.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(feature, forKey: .feature)
        try container.encode(used, forKey: .used)
        try container.encode(proceeds, forKey: .proceeds)
        try container.encode(cost, forKey: .cost)
        try container.encode(margin, forKey: .margin)
    }
}
