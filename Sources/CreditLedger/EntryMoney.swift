/// What one payment or refund step comes to in its currency, as the money section counts it.
public struct MoneyLine: Sendable, Equatable {
    /// ISO 4217, from the signed transaction.
    public var currency: String
    /// ISO 3166-1 alpha-3, from the signed transaction.
    public var storefront: String
    /// Whether the settings know the storefront's tax: when not, only ``MoneySplit/gross`` is worked out (the rest is
    /// zero, never guessed).
    public var taxKnown: Bool
    public var split: MoneySplit

    public init(currency: String, storefront: String, taxKnown: Bool, split: MoneySplit) {
        self.currency = currency
        self.storefront = storefront
        self.taxKnown = taxKnown
        self.split = split
    }

    /// The line of a sale at `receipt`'s price in its storefront under `settings`.
    public init(sale receipt: SaleReceipt, settings: some MoneySettings) throws {
        let gross = try receipt.grossMicros
        let tax = settings.taxBasisPoints(storefront: receipt.storefront)
        let split =
            try tax.map {
                try MoneySplit(gross: gross, taxBasisPoints: $0, commissionBasisPoints: settings.commission.basisPoints)
            } ?? MoneySplit(gross: gross, tax: 0, commission: 0, proceeds: 0)
        self.init(currency: receipt.currency, storefront: receipt.storefront, taxKnown: tax != nil, split: split)
    }
}

/// What one ledger entry is in the money section: the credit it gave or took back, and for a sale or a refund step
/// the money, read from its signed transaction.
public enum EntryMoney: Sendable, Equatable {
    /// A charge or a decline: counted as credit used by the feature lines.
    case use
    /// The opening: credit given free.
    case opening(credit: Int64)
    /// A top-up with no signed transaction (simulated): no money taken.
    case simulated(credit: Int64)
    /// A top-up paid for; the money nil when its receipt cannot be read.
    case sale(credit: Int64, money: MoneyLine?)
    /// A reversal: credit taken back (positive) for a refund, and that share of the sale's money.
    case refund(credit: Int64, money: MoneyLine?)
    /// A reinstatement: a reversal given back, credit and money exactly as the reversal took them.
    case reinstatement(credit: Int64, money: MoneyLine?)
}

/// Reads the money of a ledger's entries: each reversal's share of its sale from its own receipt (the signed
/// transaction showing the refund, with the sale's price, currency and storefront), each reinstatement's from the
/// reversal it gives back.
///
/// A receipt that cannot be read (which `credit verify` reports) counts its credit and no money; so does a
/// reinstatement whose reversal is not in the entries.
public struct MoneyReader: Sendable {
    private let settings: any MoneySettings
    private var reversals: [String: LedgerEntry] = [:]

    /// A reader for `entries` (distinct by id): their reversals are kept to price the reinstatements.
    public init(entries: some Sequence<LedgerEntry>, settings: any MoneySettings) {
        self.settings = settings
        for entry in entries where entry.kind == .reversal { reversals[entry.id] = entry }
    }

    /// What `entry` is in the money section.
    public func money(of entry: LedgerEntry) throws -> EntryMoney {
        switch entry.kind {
        case .charge, .refund:
            return .use
        case .opening:
            return .opening(credit: entry.amount.rawValue)
        case .reversal:
            return .refund(credit: try entry.amount.negated().rawValue, money: try refundLine(entry))
        case .topup:
            if let reversal = entry.refersTo {
                return .reinstatement(
                    credit: entry.amount.rawValue, money: try reversals[reversal].flatMap(refundLine))
            }
            guard entry.receipt != nil else { return .simulated(credit: entry.amount.rawValue) }
            return .sale(
                credit: entry.amount.rawValue,
                money: try SaleReceipt(entry.receipt).map { try MoneyLine(sale: $0, settings: settings) })
        }
    }

    /// The share of its sale a reversal took back: the refund its receipt shows (all of it when none is shown).
    private func refundLine(_ reversal: LedgerEntry) throws -> MoneyLine? {
        guard let receipt = SaleReceipt(reversal.receipt) else { return nil }
        var line = try MoneyLine(sale: receipt, settings: settings)
        line.split = try line.split.share(milliPercent: receipt.refund?.milliPercent ?? 100_000)
        return line
    }
}
