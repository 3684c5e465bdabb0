import LedgerEntries

/// The sums of one period's money section being added up: what a ledger's entries and what summaries' rows both add
/// into, so both money sections are worked out by one piece of code (as ``ProfitAndLossTally`` for the features).
/// Every sum is checked: an overflow throws ``LedgerError/overflow(_:)``.
public struct MoneyTally: Sendable {
    /// The currency micro-credits are millionths of: the only one a feature's cost and margin are in.
    public static let creditCurrency = "GBP"

    /// One currency's sums, by kind of row.
    struct CurrencyFigures: Sendable {
        var counts: [MoneyKind: Int64] = [:]
        var splits: [MoneyKind: MoneySplit] = [:]
        var taxUnknownTopUps: Int64 = 0
        var taxUnknownGross: Int64 = 0

        func count(_ kind: MoneyKind) -> Int64 { counts[kind] ?? 0 }
        func split(_ kind: MoneyKind) -> MoneySplit {
            splits[kind] ?? MoneySplit(gross: 0, tax: 0, commission: 0, proceeds: 0)
        }
    }

    private var creditSums: [CreditKind: Int64] = [:]
    private(set) var simulatedTopUpCount: Int64 = 0
    private(set) var currencySums: [String: CurrencyFigures] = [:]
    private var used: [String: (used: Int64, cost: Int64)] = [:]

    /// The credit of `kind` added.
    func credit(_ kind: CreditKind) -> Int64 { creditSums[kind] ?? 0 }

    /// Every feature's credit used and cost.
    var usedByFeature: [(feature: String, used: Int64, cost: Int64)] {
        used.map { ($0.key, $0.value.used, $0.value.cost) }
    }

    public init() {}

    private static func sum(_ a: Int64, _ b: Int64) throws -> Int64 {
        try MicroCredits(a).adding(MicroCredits(b)).rawValue
    }

    /// Adds `count` entries of credit `kind` worth `amount` (positive).
    public mutating func addCredit(_ kind: CreditKind, count: Int64 = 1, amount: Int64) throws {
        creditSums[kind] = try Self.sum(creditSums[kind] ?? 0, amount)
        if kind == .noMoneyTaken { simulatedTopUpCount = try Self.sum(simulatedTopUpCount, count) }
    }

    /// Adds `count` money rows of `kind` in `currency` coming to `split` (tax, commission and proceeds zero when the
    /// tax is not known).
    public mutating func addMoney(
        _ kind: MoneyKind, currency: String, taxKnown: Bool, count: Int64 = 1, split: MoneySplit
    ) throws {
        var sums = currencySums[currency] ?? CurrencyFigures()
        sums.counts[kind] = try Self.sum(sums.counts[kind] ?? 0, count)
        let held = sums.splits[kind] ?? MoneySplit(gross: 0, tax: 0, commission: 0, proceeds: 0)
        sums.splits[kind] = MoneySplit(
            gross: try Self.sum(held.gross, split.gross), tax: try Self.sum(held.tax, split.tax),
            commission: try Self.sum(held.commission, split.commission),
            proceeds: try Self.sum(held.proceeds, split.proceeds))
        if kind == .sale && !taxKnown {
            sums.taxUnknownTopUps = try Self.sum(sums.taxUnknownTopUps, count)
            sums.taxUnknownGross = try Self.sum(sums.taxUnknownGross, split.gross)
        }
        currencySums[currency] = sums
    }

    /// Adds credit used by `feature`: `charged` less `givenBack` (both positive), and the cost of serving it.
    public mutating func addUse(feature: String, charged: Int64, givenBack: Int64, cost: Int64) throws {
        let held = used[feature] ?? (0, 0)
        let net = try MicroCredits(charged).subtracting(MicroCredits(givenBack)).rawValue
        used[feature] = (try Self.sum(held.used, net), try Self.sum(held.cost, cost))
    }

    /// Adds every sum of `other` (another part of the same period's rows, added apart, on another core): the same
    /// sums as adding its rows here, in any order; an overflow throws ``LedgerError/overflow(_:)``.
    public mutating func merge(_ other: MoneyTally) throws {
        for (kind, amount) in other.creditSums { creditSums[kind] = try Self.sum(creditSums[kind] ?? 0, amount) }
        simulatedTopUpCount = try Self.sum(simulatedTopUpCount, other.simulatedTopUpCount)
        for (currency, theirs) in other.currencySums {
            var sums = currencySums[currency] ?? CurrencyFigures()
            for (kind, count) in theirs.counts { sums.counts[kind] = try Self.sum(sums.counts[kind] ?? 0, count) }
            for (kind, split) in theirs.splits {
                let held = sums.split(kind)
                sums.splits[kind] = MoneySplit(
                    gross: try Self.sum(held.gross, split.gross), tax: try Self.sum(held.tax, split.tax),
                    commission: try Self.sum(held.commission, split.commission),
                    proceeds: try Self.sum(held.proceeds, split.proceeds))
            }
            sums.taxUnknownTopUps = try Self.sum(sums.taxUnknownTopUps, theirs.taxUnknownTopUps)
            sums.taxUnknownGross = try Self.sum(sums.taxUnknownGross, theirs.taxUnknownGross)
            currencySums[currency] = sums
        }
        for (feature, theirs) in other.used {
            let held = used[feature] ?? (0, 0)
            used[feature] = (try Self.sum(held.used, theirs.used), try Self.sum(held.cost, theirs.cost))
        }
    }

    /// Adds one ledger entry's credit and money (a charge's or decline's use is added with ``addUse``).
    public mutating func add(_ money: EntryMoney) throws {
        switch money {
        case .use: break
        case .opening(let credit): try addCredit(.givenFree, amount: credit)
        case .simulated(let credit): try addCredit(.noMoneyTaken, amount: credit)
        case .sale(let credit, let line): try add(.sale, .sold, credit, line)
        case .refund(let credit, let line): try add(.refund, .takenBack, credit, line)
        case .reinstatement(let credit, let line): try add(.reinstatement, .reinstated, credit, line)
        }
    }

    private mutating func add(_ kind: MoneyKind, _ creditKind: CreditKind, _ credit: Int64, _ line: MoneyLine?) throws {
        try addCredit(creditKind, amount: credit)
        if let line { try addMoney(kind, currency: line.currency, taxKnown: line.taxKnown, split: line.split) }
    }
}
