import LedgerEntries

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
