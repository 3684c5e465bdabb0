/// What one feature took: how many charges and how much, how many were declined and what was given back, and the
/// net. The profit-and-loss line for a feature, without its costs.
public struct FeatureTakings: Sendable, Equatable, Codable {
    public var feature: String
    public var charges: Int
    /// Charged, as a positive amount.
    public var charged: MicroCredits
    public var declined: Int
    /// Given back on declines, as a positive amount.
    public var givenBack: MicroCredits
    /// Charged less given back.
    public var net: MicroCredits

    public init(feature: String, charges: Int = 0, charged: MicroCredits = .zero, declined: Int = 0,
                givenBack: MicroCredits = .zero, net: MicroCredits = .zero) {
        self.feature = feature
        self.charges = charges
        self.charged = charged
        self.declined = declined
        self.givenBack = givenBack
        self.net = net
    }
}

/// Totals over a set of entries, for the credit screen.
public struct LedgerTotals: Sendable, Equatable {
    /// Charges less refunds, as a positive amount.
    public var used: MicroCredits = .zero
    /// Top-ups less reversals.
    public var toppedUp: MicroCredits = .zero
    /// The opening credit.
    public var opening: MicroCredits = .zero
}

extension Ledger {
    /// Takings by feature over the distinct entries written at or after `since` (all time when nil), most charged
    /// first.
    public func takings(since: Timestamp? = nil) throws -> [FeatureTakings] {
        try Ledger.takings(of: distinctEntriesUnordered, since: since)
    }

    /// Takings over the last `days` days before the ledger clock's now.
    public func takings(lastDays days: Int) throws -> [FeatureTakings] {
        try takings(since: clock.now().adding(days: -Int64(days)))
    }

    /// The credit screen's totals.
    public func totals() throws -> LedgerTotals {
        var totals = LedgerTotals()
        for entry in distinctEntriesUnordered {
            switch entry.kind {
            case .opening: totals.opening = try totals.opening.adding(entry.amount)
            case .charge, .refund: totals.used = try totals.used.subtracting(entry.amount)
            case .topup, .reversal: totals.toppedUp = try totals.toppedUp.adding(entry.amount)
            }
        }
        return totals
    }

    /// Takings over `entries` (already distinct by id).
    public static func takings(of entries: some Sequence<LedgerEntry>, since: Timestamp?) throws -> [FeatureTakings] {
        var byFeature: [String: FeatureTakings] = [:]
        for entry in entries {
            if let since, entry.time < since { continue }
            guard let feature = entry.feature else { continue }
            var line = byFeature[feature] ?? FeatureTakings(feature: feature)
            switch entry.kind {
            case .charge:
                line.charges += 1
                line.charged = try line.charged.subtracting(entry.amount)
            case .refund:
                line.declined += 1
                line.givenBack = try line.givenBack.adding(entry.amount)
            default:
                continue
            }
            line.net = try line.charged.subtracting(line.givenBack)
            byFeature[feature] = line
        }
        return byFeature.values.sorted { ($1.charged, $0.feature) < ($0.charged, $1.feature) }
    }

    /// The entries that count, one per id, in no particular order.
    public var distinctEntriesUnordered: some Sequence<LedgerEntry> {
        countedIndices.lazy.map { self.entries[$0] }
    }
}
