import LedgerEntries

extension MoneyTally {
    /// What the period's section says besides its sums: the commission, the accounts, the balances as of the as-of.
    public struct Context: Sendable {
        public var commission: CommissionRate?
        public var placeholders: Bool
        public var accountsCounted: Int
        public var accountsWithoutMoney: Int
        public var balances: MoneyBalances

        public init(
            commission: CommissionRate?, placeholders: Bool, accountsCounted: Int, accountsWithoutMoney: Int,
            balances: MoneyBalances
        ) {
            self.commission = commission
            self.placeholders = placeholders
            self.accountsCounted = accountsCounted
            self.accountsWithoutMoney = accountsWithoutMoney
            self.balances = balances
        }
    }

    /// The period's money section: currencies by code, each feature's share of each currency's kept proceeds
    /// (features by credit used, most first, then by key).
    public func period(_ context: Context) throws -> PeriodMoney {
        let features = usedByFeature.sorted { ($1.used, $0.feature) < ($0.used, $1.feature) }
        let totalUsed = try features.reduce(Int64(0)) { try MicroCredits($0).adding(MicroCredits($1.used)).rawValue }
        var lines: [CurrencyMoney] = []
        for (currency, sums) in currencySums.sorted(by: { $0.key < $1.key }) {
            lines.append(try line(currency, sums, features: features, totalUsed: totalUsed))
        }
        let figures = CreditMoney(
            sold: credit(.sold), simulated: credit(.noMoneyTaken), givenFree: credit(.givenFree),
            takenBack: credit(.takenBack), reinstated: credit(.reinstated), used: totalUsed,
            outstanding: context.balances.outstanding, belowZero: context.balances.belowZero,
            accountsBelowZero: context.balances.accountsBelowZero)
        return PeriodMoney(
            commission: context.commission, placeholders: context.placeholders,
            accountsCounted: context.accountsCounted, accountsWithoutMoney: context.accountsWithoutMoney,
            simulatedTopUps: simulatedTopUpCount, credit: figures, currencies: lines)
    }

    private func line(
        _ currency: String, _ sums: CurrencyFigures, features: [(feature: String, used: Int64, cost: Int64)],
        totalUsed: Int64
    ) throws -> CurrencyMoney {
        let sale = sums.split(.sale)
        let refund = sums.split(.refund)
        let reinstatement = sums.split(.reinstatement)
        let kept = try MicroCredits(sale.proceeds).subtracting(MicroCredits(refund.proceeds))
            .adding(MicroCredits(reinstatement.proceeds)).rawValue
        var featureLines: [FeatureMoney] = []
        for item in features {
            // Its share of the credit used; nothing to share when no credit was used.
            let proceeds = totalUsed > 0 ? try MoneySplit.rounded(kept, times: item.used, over: totalUsed) : 0
            let inPounds = currency == MoneyTally.creditCurrency
            featureLines.append(
                FeatureMoney(
                    feature: item.feature, used: item.used, proceeds: proceeds, cost: inPounds ? item.cost : nil,
                    margin: inPounds ? try MicroCredits(proceeds).subtracting(MicroCredits(item.cost)).rawValue : nil))
        }
        return CurrencyMoney(
            currency: currency, topUps: sums.count(.sale), gross: sale.gross, tax: sale.tax,
            commission: sale.commission, proceeds: sale.proceeds, refunds: sums.count(.refund),
            refundedGross: refund.gross, refunded: refund.proceeds, reinstatements: sums.count(.reinstatement),
            reinstated: reinstatement.proceeds, kept: kept, taxUnknownTopUps: sums.taxUnknownTopUps,
            taxUnknownGross: sums.taxUnknownGross, features: featureLines)
    }
}
