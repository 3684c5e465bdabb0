import CreditLedger

/// One period of the P&L in money as a terminal table (after ``PnLText``'s): a line per currency, the credit, and
/// each feature's share of the proceeds beside its cost and margin, features named as ``PnLText`` names them.
/// `analytics/pnl_text.py` writes the same words.
struct PnLMoneyText {
    var money: PeriodMoney
    var title: String
    var style: Style

    static let headings = [
        "Currency", "Top-ups", "Gross paid", "Tax", "Commission", "Proceeds", "Refunded", "Reinstated", "Kept",
        "Tax unknown",
    ]

    var text: String {
        var out = [style.bold("Money, \(title)")]
        if money.accountsWithoutMoney > 0 {
            out.append(
                "  \(CountNoun("account", "accounts")(money.accountsWithoutMoney)) whose summaries carry no money "
                    + "(exported before money was summarised): left out of the money; export again to count them.")
        }
        if money.currencies.isEmpty {
            out.append("  No money taken.")
        } else {
            out.append(table([PnLMoneyText.headings] + money.currencies.map(row), rightAligned: Set(1...8)))
        }
        out.append("  Top-ups with no money taken (simulated): \(money.simulatedTopUps).")
        let credit = money.credit
        out.append(
            "  Credit: sold \(pounds(credit.sold)), given free \(pounds(credit.givenFree)), simulated "
                + "\(pounds(credit.simulated)), taken back \(pounds(credit.takenBack)), reinstated "
                + "\(pounds(credit.reinstated)), used \(pounds(credit.used)).")
        out.append(
            "  Credit outstanding \(pounds(credit.outstanding)) (balances above zero: still to be spent); below zero "
                + "\(pounds(credit.belowZero)) in \(CountNoun("account", "accounts")(credit.accountsBelowZero)) "
                + "(used and not paid for).")
        for currency in money.currencies where !currency.features.isEmpty && !PnLMoneyText.proceedsUnknown(currency) {
            out.append(features(currency))
        }
        out.append(notes)
        return out.joined(separator: "\n")
    }

    /// Whether every top-up of the currency came from a storefront whose tax is unknown: its tax, commission and
    /// proceeds are not worked out, so they are shown as "-" rather than as nothing.
    static func proceedsUnknown(_ line: CurrencyMoney) -> Bool {
        line.topUps > 0 && line.taxUnknownTopUps == line.topUps
    }

    private func row(_ line: CurrencyMoney) -> [String] {
        let unknown = PnLMoneyText.proceedsUnknown(line)
        let amount = { (micros: Int64) in CurrencyAmount.formatted(micros, currency: line.currency) }
        let worked = { (micros: Int64) in unknown ? "-" : amount(micros) }
        let taxUnknown =
            line.taxUnknownTopUps == 0 ? "-" : "\(line.taxUnknownTopUps) (\(amount(line.taxUnknownGross)) paid)"
        return [
            line.currency, String(line.topUps), amount(line.gross), worked(line.tax), worked(line.commission),
            worked(line.proceeds), worked(line.refunded), worked(line.reinstated), worked(line.kept), taxUnknown,
        ]
    }

    private func features(_ line: CurrencyMoney) -> String {
        let amount = { (micros: Int64) in CurrencyAmount.formatted(micros, currency: line.currency) }
        var rows = [["Feature", "Credit used", "Proceeds", "Cost*", "Margin*"]]
        for feature in line.features {
            rows.append([
                LedgerCommands.featureCell(feature.feature), pounds(feature.used),
                amount(feature.proceeds),
                feature.cost.map { pounds($0) + "*" } ?? "-", feature.margin.map { amount($0) + "*" } ?? "-",
            ])
        }
        return "  Proceeds by feature in \(line.currency): the proceeds kept, shared out by each feature's share of "
            + "the credit used (not money a feature earned).\n" + table(rows, rightAligned: Set(1...4))
    }

    private var notes: String {
        let commission =
            money.commission.map { "Commission \(PnLText.percent($0.basisPoints)) (\($0.name))" }
            ?? "Commissions differ between accounts"
        return commission + " of the price less its tax; tax by storefront from the app's table; "
            + (money.placeholders ? "every money setting is a placeholder. " : "")
            + "Each currency is shown in its own, never converted; a storefront whose tax is not in the table is "
            + "counted as paid, its proceeds not worked out. Costs and margins in pounds only."
    }

    private func pounds(_ micros: Int64) -> String { MicroCredits(micros).formatted }
}
