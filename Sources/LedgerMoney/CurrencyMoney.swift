import LedgerEntries

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
