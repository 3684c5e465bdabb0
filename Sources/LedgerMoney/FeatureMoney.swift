import LedgerEntries

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
