import LedgerEntries
import LedgerMoney
import SafeText

/// One period's money on the page, as `credit pnl` prints it: a line per currency (never converted), the credit,
/// and each feature's share of the proceeds beside its cost and margin. Figure cells carry `data-period`,
/// `data-money` (`GBP`, or `credit`), `data-field` and `data-value` (the JSON's value).
enum PageMoney {
    private static let currencyColumns: [(field: String, title: String)] = [
        ("topUps", "Top-ups"), ("gross", "Gross paid"), ("tax", "Tax"), ("commission", "Commission"),
        ("proceeds", "Proceeds"), ("refunded", "Refunded"), ("reinstated", "Reinstated"), ("kept", "Kept"),
        ("taxUnknownTopUps", "Tax unknown"),
    ]

    private static let creditFields: [(field: String, title: String)] = [
        ("sold", "Sold"), ("givenFree", "Given free"), ("simulated", "Simulated"), ("takenBack", "Taken back"),
        ("reinstated", "Reinstated"), ("used", "Used"), ("outstanding", "Outstanding"), ("belowZero", "Below zero"),
    ]

    /// Whether every top-up of the currency came from a storefront whose tax is unknown: its tax, commission and
    /// proceeds are not worked out, and shown as "–", not as nothing.
    static func proceedsUnknown(_ line: CurrencyMoney) -> Bool {
        line.topUps > 0 && line.taxUnknownTopUps == line.topUps
    }

    static func html(_ money: PeriodMoney, period: String, content: PnLPageContent) -> String {
        var html = "<div class=\"money\">\n<h3>Money</h3>\n"
        if money.accountsWithoutMoney > 0 {
            html +=
                "<p class=\"note\">\(CountNoun("account", "accounts")(money.accountsWithoutMoney)) whose "
                + "summaries carry no money (exported before money was summarised): left out of the money; export "
                + "again to count them.</p>\n"
        }
        if money.currencies.isEmpty {
            html += "<p class=\"empty\">No money taken.</p>\n"
        } else {
            html += currencies(money.currencies, period: period)
        }
        html += "<p class=\"note\">Top-ups with no money taken (simulated): \(money.simulatedTopUps).</p>\n"
        html += credit(money.credit, period: period)
        for line in money.currencies where !line.features.isEmpty && !proceedsUnknown(line) {
            html += features(line, period: period, content: content)
        }
        return html + "</div>\n"
    }

    private static func currencies(_ lines: [CurrencyMoney], period: String) -> String {
        var html = "<div class=\"table-wrap\"><table>\n<thead><tr><th>Currency</th>"
        html += currencyColumns.map { "<th>\($0.title)</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for line in lines {
            let currency = HTMLText.escape(line.currency)
            html += "<tr><th scope=\"row\">\(currency)</th>"
            for column in currencyColumns {
                let (value, shown) = figure(line, column.field)
                html += cell(period: period, money: currency, field: column.field, value: value, shown: shown)
            }
            html += "</tr>\n"
        }
        return html + "</tbody>\n</table></div>\n"
    }

    /// The JSON's value of a currency's `field` and how it reads ("–" where the tax is unknown).
    private static func figure(_ line: CurrencyMoney, _ field: String) -> (Int64, String) {
        let amount = { (micros: Int64) in CurrencyAmount.formatted(micros, currency: line.currency) }
        let unknown = proceedsUnknown(line)
        switch field {
        case "topUps": return (line.topUps, "\(line.topUps)")
        case "gross": return (line.gross, amount(line.gross))
        case "tax": return (line.tax, unknown ? "–" : amount(line.tax))
        case "commission": return (line.commission, unknown ? "–" : amount(line.commission))
        case "proceeds": return (line.proceeds, unknown ? "–" : amount(line.proceeds))
        case "refunded": return (line.refunded, unknown ? "–" : amount(line.refunded))
        case "reinstated": return (line.reinstated, unknown ? "–" : amount(line.reinstated))
        case "kept": return (line.kept, unknown ? "–" : amount(line.kept))
        default:
            let shown =
                line.taxUnknownTopUps == 0
                ? "–" : "\(line.taxUnknownTopUps) (\(amount(line.taxUnknownGross)) paid)"
            return (line.taxUnknownTopUps, shown)
        }
    }

    private static func credit(_ credit: CreditMoney, period: String) -> String {
        let values: [String: Int64] = [
            "sold": credit.sold, "givenFree": credit.givenFree, "simulated": credit.simulated,
            "takenBack": credit.takenBack, "reinstated": credit.reinstated, "used": credit.used,
            "outstanding": credit.outstanding, "belowZero": credit.belowZero,
        ]
        var html = "<div class=\"table-wrap\"><table class=\"credit\">\n<thead><tr><th>Credit</th>"
        html += creditFields.map { "<th>\($0.title)</th>" }.joined() + "<th>Accounts below zero</th></tr></thead>\n"
        html += "<tbody><tr><th scope=\"row\">In pounds</th>"
        for field in creditFields {
            let value = values[field.field] ?? 0
            html += cell(
                period: period, money: "credit", field: field.field, value: value,
                shown: MicroCredits(value).formatted)
        }
        html += cell(
            period: period, money: "credit", field: "accountsBelowZero", value: Int64(credit.accountsBelowZero),
            shown: "\(credit.accountsBelowZero)")
        return html + "</tr></tbody>\n</table></div>\n"
            + "<p class=\"note\">Outstanding: balances above zero, still to be spent (a liability). Below zero: "
            + "used and not paid for, what the honesty box has not collected.</p>\n"
    }

    /// What a feature's proceeds are, in the words `credit pnl` and `analytics/pnl.sh` use beside their tables.
    static let featureShareNote =
        "The proceeds kept, shared out by each feature's share of the credit used (not money a feature earned)."

    private static func features(_ line: CurrencyMoney, period: String, content: PnLPageContent) -> String {
        let amount = { (micros: Int64) in CurrencyAmount.formatted(micros, currency: line.currency) }
        var html = "<h4>Proceeds by feature in \(HTMLText.escape(line.currency))</h4>\n"
        html += "<p class=\"note\">\(HTMLText.escape(featureShareNote))</p>\n"
        html += "<div class=\"table-wrap\"><table>\n<thead><tr><th>Feature</th><th>Credit used</th><th>Proceeds</th>"
        html += "<th>Cost</th><th>Margin</th></tr></thead>\n<tbody>\n"
        for feature in line.features {
            html += "<tr><th scope=\"row\">\(PnLTable.featureName(feature.feature, content: content))</th>"
            html +=
                "<td>\(MicroCredits(feature.used).formatted)</td><td>\(HTMLText.escape(amount(feature.proceeds)))</td>"
            html += "<td>\(feature.cost.map { MicroCredits($0).formatted } ?? "–")</td>"
            html += "<td>\(feature.margin.map { HTMLText.escape(amount($0)) } ?? "–")</td></tr>\n"
        }
        return html + "</tbody>\n</table></div>\n"
    }

    private static func cell(period: String, money: String, field: String, value: Int64, shown: String) -> String {
        "<td data-period=\"\(HTMLText.escape(period))\" data-money=\"\(money)\" data-field=\"\(field)\" "
            + "data-value=\"\(value)\">\(HTMLText.escape(shown))</td>"
    }
}
