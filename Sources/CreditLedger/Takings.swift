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

    public init(
        feature: String, charges: Int = 0, charged: MicroCredits = .zero, declined: Int = 0,
        givenBack: MicroCredits = .zero, net: MicroCredits = .zero
    ) {
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
        let positions = countedIndices
        return try entries.withUnsafeBufferPointer { list in
            var table = TakingsTable()
            for position in positions {
                let index = Int(position)
                let kind = list[index].kind
                guard kind == .charge || kind == .refund else { continue }
                if let since, list[index].time < since { continue }
                guard let feature = list[index].feature else { continue }
                try table.add(kind: kind, feature: feature, amount: list[index].amount)
            }
            return try table.sorted
        }
    }

    /// Takings over the last `days` days before the ledger clock's now.
    public func takings(lastDays days: Int) throws -> [FeatureTakings] {
        try takings(since: clock.now().adding(days: -Int64(days)))
    }

    /// The credit screen's totals.
    public func totals() throws -> LedgerTotals {
        var opening = MicroCredits.zero
        var used = MicroCredits.zero
        var toppedUp = MicroCredits.zero
        let positions = countedIndices
        try entries.withUnsafeBufferPointer { list in
            for position in positions {
                let amount = list[Int(position)].amount
                switch list[Int(position)].kind {
                case .opening: opening = try opening.adding(amount)
                case .charge, .refund: used = try used.subtracting(amount)
                case .topup, .reversal: toppedUp = try toppedUp.adding(amount)
                }
            }
        }
        return LedgerTotals(used: used, toppedUp: toppedUp, opening: opening)
    }

    /// Takings over `entries` (already distinct by id).
    public static func takings(of entries: some Sequence<LedgerEntry>, since: Timestamp?) throws -> [FeatureTakings] {
        var table = TakingsTable()
        for entry in entries {
            if let since, entry.time < since { continue }
            guard entry.kind == .charge || entry.kind == .refund, let feature = entry.feature else { continue }
            try table.add(kind: entry.kind, feature: feature, amount: entry.amount)
        }
        return try table.sorted
    }

    /// The entries that count, one per id, in no particular order.
    public var distinctEntriesUnordered: some Sequence<LedgerEntry> {
        countedIndices.lazy.map { self.entries[Int($0)] }
    }
}

/// Takings being added up, one line per feature: the features (a few dozen at most) found through a small hash
/// table on their bytes, and the sums kept apart from the names, so a million entries cost a million short hashes
/// and a few additions rather than a million dictionary look-ups and write-backs of a struct holding a string.
private struct TakingsTable {
    private struct Sums {
        var charges = 0
        var charged = MicroCredits.zero
        var declined = 0
        var givenBack = MicroCredits.zero
    }

    private var features: [String] = []
    private var sums: [Sums] = []
    private var slots = [Int32](repeating: -1, count: 64)

    /// Adds a charge or a refund of `feature`.
    mutating func add(kind: EntryKind, feature: String, amount: MicroCredits) throws {
        let index = line(for: feature)
        try sums.withUnsafeMutableBufferPointer { sums in
            if kind == .charge {
                sums[index].charges += 1
                sums[index].charged = try sums[index].charged.subtracting(amount)
            } else {
                sums[index].declined += 1
                sums[index].givenBack = try sums[index].givenBack.adding(amount)
            }
            // The net as it goes (so an overflow shows where it happens, as before).
            _ = try sums[index].charged.subtracting(sums[index].givenBack)
        }
    }

    /// Most charged first, then by feature.
    var sorted: [FeatureTakings] {
        get throws {
            try zip(features, sums).map { feature, sums in
                FeatureTakings(
                    feature: feature, charges: sums.charges, charged: sums.charged, declined: sums.declined,
                    givenBack: sums.givenBack, net: try sums.charged.subtracting(sums.givenBack))
            }.sorted { ($1.charged, $0.feature) < ($0.charged, $1.feature) }
        }
    }

    private mutating func line(for feature: String) -> Int {
        if features.count * 2 >= slots.count { grow() }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: TakingsTable.hash(feature)) & mask
        while true {
            let index = Int(slots[slot])
            if index < 0 {
                slots[slot] = Int32(features.count)
                features.append(feature)
                sums.append(Sums())
                return features.count - 1
            }
            if features[index] == feature { return index }
            slot = (slot + 1) & mask
        }
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (index, feature) in features.enumerated() {
            var slot = Int(truncatingIfNeeded: TakingsTable.hash(feature)) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
        }
    }

    /// FNV-1a over the bytes: feature keys are a dozen bytes or so.
    private static func hash(_ feature: String) -> UInt64 {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in feature.utf8 { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return value ^ (value >> 29)
    }
}
