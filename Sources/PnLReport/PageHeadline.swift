import LedgerEntries
import LedgerMoney
import SafeText

/// The figures at the top of the page, all time: net takings, margin, proceeds (each currency in its own), credit
/// outstanding and accounts below zero. Each figure carries `data-headline` and `data-value` (the JSON's value), so
/// a test can hold them against `credit pnl --json`.
enum PageHeadline {
    static func html(_ report: ProfitAndLossReport) -> String {
        guard let all = report.period("all") else { return "" }
        var cards = [
            card(
                "net", "Net takings", MicroCredits(all.total.net).formatted, value: all.total.net,
                note: "charged less given back"),
            card(
                "margin", "Margin", MicroCredits(all.total.margin).formatted, value: all.total.margin,
                note: all.total.marginBasisPoints.map { PnLPage.percent($0) + " of net takings" } ?? "no net takings"),
        ]
        if let money = all.money {
            cards.append(proceeds(money))
            cards.append(
                card(
                    "outstanding", "Credit outstanding", MicroCredits(money.credit.outstanding).formatted,
                    value: money.credit.outstanding, note: "balances above zero: still to be spent"))
            cards.append(
                card(
                    "accountsBelowZero", "Accounts below zero", "\(money.credit.accountsBelowZero)",
                    value: Int64(money.credit.accountsBelowZero),
                    note: "\(MicroCredits(money.credit.belowZero).formatted) used and not paid for"))
        }
        return "<section class=\"headline\" aria-label=\"Headline figures, all time\">\n" + cards.joined()
            + "</section>\n"
    }

    /// Proceeds by currency (never added across currencies), with what refunds left of them.
    private static func proceeds(_ money: PeriodMoney) -> String {
        guard !money.currencies.isEmpty else {
            return card("proceeds", "Proceeds", "none", value: 0, note: "no money taken")
        }
        var figures: [String] = []
        var kept: [String] = []
        for line in money.currencies {
            let amount = { (micros: Int64) in CurrencyAmount.formatted(micros, currency: line.currency) }
            let currency = HTMLText.escape(line.currency)
            if PageMoney.proceedsUnknown(line) {
                figures.append(
                    "<span class=\"unknown\" data-headline=\"proceeds\" data-currency=\"\(currency)\" "
                        + "data-value=\"null\">\(currency) not worked out (tax unknown)</span>")
            } else {
                figures.append(
                    "<span data-headline=\"proceeds\" data-currency=\"\(currency)\" data-value=\"\(line.proceeds)\">"
                        + "\(HTMLText.escape(amount(line.proceeds)))</span>")
                kept.append(HTMLText.escape(amount(line.kept)))
            }
        }
        let note = kept.isEmpty ? "tax unknown" : kept.joined(separator: ", ") + " kept after refunds"
        return "<div class=\"figure\"><div class=\"what\">Proceeds</div><div class=\"amount\">"
            + figures.joined(separator: "<br>") + "</div><div class=\"sub\">\(note)</div></div>\n"
    }

    private static func card(_ key: String, _ what: String, _ shown: String, value: Int64, note: String) -> String {
        "<div class=\"figure\"><div class=\"what\">\(what)</div>"
            + "<div class=\"amount\" data-headline=\"\(key)\" data-value=\"\(value)\">\(HTMLText.escape(shown))</div>"
            + "<div class=\"sub\">\(HTMLText.escape(note))</div></div>\n"
    }
}
