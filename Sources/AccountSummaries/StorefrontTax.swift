import LedgerEntries
import LedgerMoney

/// The sales tax included in the price by storefront, as the app's own money settings have it
/// (`VoiceDebriefMoney.taxByStorefront`; `analytics/storefront_tax.json` for `analytics/pnl.sh`, kept the same by a
/// test). The totals work out every money row's tax, commission and proceeds from its gross with this table and the
/// summary's commission: never from the figures a summary claims, which anyone with a key of their own can write. A
/// storefront the table lacks is "tax unknown": counted as paid, its tax, commission and proceeds not worked out.
public struct StorefrontTax: Sendable, Equatable {
    /// Basis points (20% VAT is 2000) by storefront (ISO 3166-1 alpha-3).
    public let basisPoints: [String: Int]

    public init(_ basisPoints: [String: Int]) { self.basisPoints = basisPoints }

    /// The row's figures as the table makes them: whether its storefront's tax is known, and its split of the gross
    /// (only the gross when the tax is unknown), each rounded as ``MoneySplit`` rounds. Worked out on the row's gross,
    /// a day's top-ups of one storefront together, so it may differ from the sum of each top-up's own split (an
    /// account's own `credit pnl`) by a micro-unit a top-up.
    func figures(of row: SummaryMoney, commissionBasisPoints: Int) throws -> (taxKnown: Bool, split: MoneySplit) {
        guard let tax = basisPoints[row.storefront] else {
            return (false, MoneySplit(gross: row.gross, tax: 0, commission: 0, proceeds: 0))
        }
        let split = try MoneySplit(
            gross: row.gross, taxBasisPoints: tax, commissionBasisPoints: commissionBasisPoints)
        return (true, split)
    }
}
