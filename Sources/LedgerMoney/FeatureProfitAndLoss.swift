import LedgerEntries

/// One feature's line of the P&L (or the total line, feature `total`); amounts in whole micro-credits.
public struct FeatureProfitAndLoss: Sendable, Equatable, Codable {
    public var feature: String
    public var charges: Int
    /// Charged, positive.
    public var charged: Int64
    /// How many charges were given back (declines written in the period).
    public var declined: Int
    /// `declined` over `charges` in basis points (1% is 100), to the nearest one (a half up); nil with no charges.
    public var declinedShareBasisPoints: Int?
    /// Given back on declines, positive.
    public var givenBack: Int64
    /// Charged less given back: the net takings.
    public var net: Int64
    /// What serving every charge cost, declined or not (the work was served either way).
    public var cost: Int64
    /// Net takings less cost.
    public var margin: Int64
    /// `margin` over `net` in basis points, to the nearest one (a half away from zero); nil when the net is zero.
    public var marginBasisPoints: Int?
    /// The margin is below zero.
    public var losesMoney: Bool
    /// At least the report's threshold of charges were declined.
    public var oftenDeclined: Bool

    /// The line for these sums, its derived figures worked out; an overflow throws.
    public init(
        feature: String, charges: Int, charged: Int64, declined: Int, givenBack: Int64, cost: Int64,
        oftenDeclinedBasisPoints: Int
    ) throws {
        self.feature = feature
        self.charges = charges
        self.charged = charged
        self.declined = declined
        self.givenBack = givenBack
        self.cost = cost
        net = try MicroCredits(charged).subtracting(MicroCredits(givenBack)).rawValue
        margin = try MicroCredits(net).subtracting(MicroCredits(cost)).rawValue
        declinedShareBasisPoints = try FeatureProfitAndLoss.basisPoints(Int64(declined), of: Int64(charges))
        marginBasisPoints = try FeatureProfitAndLoss.basisPoints(margin, of: net)
        losesMoney = margin < 0
        // declined / charges >= threshold / 10,000, without dividing.
        oftenDeclined =
            charges > 0
            && Int64(declined).multipliedFullWidth(by: 10_000)
                >= Int64(charges).multipliedFullWidth(
                    by: Int64(oftenDeclinedBasisPoints))
    }

    /// `part` over `whole` in basis points, to the nearest one, a half away from zero (1 of 6 is 1667, 16.67%); nil
    /// when `whole` is zero.
    static func basisPoints(_ part: Int64, of whole: Int64) throws -> Int? {
        guard whole != 0 else { return nil }
        // Exact in 128 bits: only a share too large for 64 bits (a margin millions of times its net) overflows.
        let scaled = part.magnitude.multipliedFullWidth(by: 10_000)
        guard scaled.high < whole.magnitude else { throw LedgerError.overflow("\(part) × 10000 / \(whole)") }
        var (quotient, remainder) = whole.magnitude.dividingFullWidth(scaled)
        // Up when the remainder is at least half the whole (written so that nothing overflows).
        if remainder >= whole.magnitude - remainder, quotient < UInt64.max { quotient += 1 }
        guard quotient <= Int64.max.magnitude else { throw LedgerError.overflow("\(part) × 10000 / \(whole)") }
        return (part < 0) != (whole < 0) ? -Int(quotient) : Int(quotient)
    }

    private enum CodingKeys: String, CodingKey {
        case feature, charges, charged, declined, declinedShareBasisPoints, givenBack, net, cost, margin
        case marginBasisPoints, losesMoney, oftenDeclined
    }

    // Written by hand so that a ratio without a denominator is `null`, never missing: a stable shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(feature, forKey: .feature)
        try container.encode(charges, forKey: .charges)
        try container.encode(charged, forKey: .charged)
        try container.encode(declined, forKey: .declined)
        try container.encode(declinedShareBasisPoints, forKey: .declinedShareBasisPoints)
        try container.encode(givenBack, forKey: .givenBack)
        try container.encode(net, forKey: .net)
        try container.encode(cost, forKey: .cost)
        try container.encode(margin, forKey: .margin)
        try container.encode(marginBasisPoints, forKey: .marginBasisPoints)
        try container.encode(losesMoney, forKey: .losesMoney)
        try container.encode(oftenDeclined, forKey: .oftenDeclined)
    }
}
