import LedgerEntries

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
