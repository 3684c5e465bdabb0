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

extension FeatureTakings {
    /// Takings by feature over `ledger`'s distinct entries written at or after `since` (all time when nil), most
    /// charged first.
    public static func list(in ledger: Ledger, since: Timestamp? = nil) throws -> [FeatureTakings] {
        try ledger.state.takings(fromMilliseconds: since?.milliseconds ?? .min)
    }

    /// Takings by feature in `ledger` over the last `days` days before the ledger clock's now.
    public static func list(in ledger: Ledger, lastDays days: Int) throws -> [FeatureTakings] {
        try list(in: ledger, since: ledger.clock.now().adding(days: -Int64(days)))
    }

    /// Takings by feature over `entries` (already distinct by id) written at or after `since` (all time when nil).
    public static func list(of entries: some Sequence<LedgerEntry>, since: Timestamp?) throws -> [FeatureTakings] {
        var codes = FeatureCodes()
        var table = TakingsTable(lines: 0)
        for entry in entries {
            if let since, entry.time < since { continue }
            guard entry.kind == .charge || entry.kind == .refund, entry.feature != nil else { continue }
            try table.add(kind: entry.kind, line: Int(codes.code(for: entry.feature) - 1), amount: entry.amount)
        }
        return try table.sorted(names: codes.names)
    }
}

extension LedgerTotals {
    /// The credit screen's totals over `ledger`'s distinct entries.
    public init(of ledger: Ledger) throws {
        self = try ledger.state.totals()
    }
}

/// What the sums over a ledger read of each entry that counts, kept beside the entries as they are counted (in
/// ``LedgerState``): 24 bytes in a row instead of a 184-byte entry each, and the feature as a number. Totals and
/// takings over a million entries then read 24 MB in order rather than a cache line of every entry and a hash of
/// every feature's name.
struct EntryTally {
    var amount: Int64
    var time: Int64
    /// 1 + the feature's place in ``FeatureCodes/names``; 0 for none.
    var feature: UInt32
    var kind: EntryKind
}

/// Feature keys numbered as they are first seen: a few dozen at most, found through a small hash table on their
/// bytes.
struct FeatureCodes {
    private(set) var names: [String] = []
    private var slots = [Int32](repeating: -1, count: 64)
    /// The features asked for lately, as the two words a String is made of, with their codes: a feature key is a
    /// short string, held in those words, so the same words are the same key; a longer one is a reference, kept
    /// here so its memory is not reused for another while it is (words that differ may still be one key, held
    /// another way, which the table then finds). Eight, looked at in turn: a ledger has a few keys, in any order,
    /// and hashing one per entry was a tenth of counting it.
    private var recent: [(word0: UInt64, word1: UInt64, code: UInt32, kept: String)] = []
    private var next = 0

    /// The code of `feature` (1 + its place in ``names``), numbering it if it is new; 0 for none.
    mutating func code(for feature: String?) -> UInt32 {
        guard let feature else { return 0 }
        let words = unsafeBitCast(feature, to: (UInt64, UInt64).self)
        for slot in recent.indices where recent[slot].word0 == words.0 && recent[slot].word1 == words.1 {
            return recent[slot].code
        }
        let code = lookUp(feature)
        if recent.count < 8 {
            recent.append((words.0, words.1, code, feature))
        } else {
            recent[next] = (words.0, words.1, code, feature)
            next = (next + 1) & 7
        }
        return code
    }

    private mutating func lookUp(_ feature: String) -> UInt32 {
        if names.count * 2 >= slots.count { grow() }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: FeatureCodes.hash(feature)) & mask
        while true {
            let index = Int(slots[slot])
            if index < 0 {
                slots[slot] = Int32(names.count)
                names.append(feature)
                return UInt32(names.count)
            }
            if names[index] == feature { return UInt32(index + 1) }
            slot = (slot + 1) & mask
        }
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (index, feature) in names.enumerated() {
            var slot = Int(truncatingIfNeeded: FeatureCodes.hash(feature)) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
        }
    }

    /// FNV-1a over the bytes: feature keys are a dozen bytes or so.
    private static func hash(_ feature: String) -> UInt64 {
        func fnv(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
            var value: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return value ^ (value >> 29)
        }
        // A native string's bytes are read in place; any other is copied once.
        return feature.utf8.withContiguousStorageIfAvailable(fnv) ?? Array(feature.utf8).withUnsafeBufferPointer(fnv)
    }
}

/// Takings being added up, one line per feature code (the line of code `n` is `n - 1`).
struct TakingsTable {
    private struct Sums {
        var charges = 0
        var charged = MicroCredits.zero
        var declined = 0
        var givenBack = MicroCredits.zero
    }

    private var sums: [Sums]

    /// Room for `lines` lines; a later line makes room for itself.
    init(lines: Int) {
        sums = [Sums](repeating: Sums(), count: lines)
    }

    /// Adds a charge or a refund to `line`.
    mutating func add(kind: EntryKind, line index: Int, amount: MicroCredits) throws {
        if index >= sums.count { sums.append(contentsOf: repeatElement(Sums(), count: index + 1 - sums.count)) }
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

    /// The features with a charge or a decline, most charged first, then by feature; line `n` is `names[n]`.
    func sorted(names: [String]) throws -> [FeatureTakings] {
        try zip(names, sums).filter { $0.1.charges > 0 || $0.1.declined > 0 }.map { feature, sums in
            FeatureTakings(
                feature: feature, charges: sums.charges, charged: sums.charged, declined: sums.declined,
                givenBack: sums.givenBack, net: try sums.charged.subtracting(sums.givenBack))
        }.sorted { ($1.charged, $0.feature) < ($0.charged, $1.feature) }
    }
}
