import LedgerEntries
import LedgerMoney

/// One day's money of one kind (sales, refund steps, reinstatements) in one currency and storefront, in a device's
/// section of a v3 summary: counts and whole micro-units of the currency, each from 0 to
/// ``SummaryLimits/maximumFigure``. Worked out at export with the app's money settings (as costs are with its cost
/// list), from each entry's signed transaction; no transaction id, token or receipt is in it.
///
/// When the storefront's tax is not in the settings (`taxKnown` false), only the gross is given: tax, commission and
/// proceeds are zero, never guessed.
public struct SummaryMoney: Sendable, Equatable, Codable {
    /// `YYYY-MM-DD`, UTC.
    public var day: String
    /// `sale`, `refund` or `reinstatement` (``MoneyKind``).
    public var kind: String
    /// ISO 4217.
    public var currency: String
    /// ISO 3166-1 alpha-3.
    public var storefront: String
    public var taxKnown: Bool
    public var count: Int64
    public var gross: Int64
    public var tax: Int64
    public var commission: Int64
    public var proceeds: Int64

    public init(
        day: String, kind: String, currency: String, storefront: String, taxKnown: Bool, count: Int64, gross: Int64,
        tax: Int64, commission: Int64, proceeds: Int64
    ) {
        self.day = day
        self.kind = kind
        self.currency = currency
        self.storefront = storefront
        self.taxKnown = taxKnown
        self.count = count
        self.gross = gross
        self.tax = tax
        self.commission = commission
        self.proceeds = proceeds
    }

    /// The figures as a split.
    public var split: MoneySplit { MoneySplit(gross: gross, tax: tax, commission: commission, proceeds: proceeds) }
}
