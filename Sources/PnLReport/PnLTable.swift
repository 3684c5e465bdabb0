import LedgerEntries
import LedgerMoney
import SafeText

/// A period's P&L as a table. Every figure cell carries `data-period`, `data-feature`, `data-field` and
/// `data-value` (the JSON's own value: whole micro-credits, counts, basis points), so a test can hold the page's
/// figures against `credit pnl --json`.
enum PnLTable {
    private static let columns: [(field: String, title: String)] = [
        ("charges", "Charges"), ("charged", "Charged"), ("declined", "Declined"),
        ("declinedShareBasisPoints", "Declined share"), ("givenBack", "Given back"), ("net", "Net takings"),
        ("cost", "Cost"), ("margin", "Margin"), ("marginBasisPoints", "Margin %"),
    ]

    static func html(_ period: PeriodProfitAndLoss, content: PnLPageContent) -> String {
        var html = "<div class=\"table-wrap\"><table>\n<thead><tr><th>Feature</th>"
        html += columns.map { "<th>\($0.title)</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for line in period.features {
            html += row(line, period: period.period, name: featureName(line.feature, content: content))
        }
        html += "</tbody>\n<tfoot>\n" + row(period.total, period: period.period, name: "Total") + "</tfoot>\n"
        return html + "</table></div>\n"
    }

    /// A feature as a cell shows it: its name in the price list's words with its key beside it (`A transcript
    /// transcript`, the key set apart), or the key alone when the price list has no name for it.
    static func featureName(_ key: String, content: PnLPageContent) -> String {
        let name = content.name(of: key)
        guard name != key else { return HTMLText.isolated(key) }
        return HTMLText.isolated(name) + " <span class=\"feature-key\">" + HTMLText.isolated(key) + "</span>"
    }

    private static func row(_ line: FeatureProfitAndLoss, period: String, name: String) -> String {
        var classes: [String] = []
        var badges: [String] = []
        if line.losesMoney {
            classes.append("loss")
            badges.append("<span class=\"badge loss\">loses money</span>")
        }
        if line.oftenDeclined {
            classes.append("often-declined")
            badges.append("<span class=\"badge declined\">often declined</span>")
        }
        let feature = HTMLText.escape(line.feature)
        var html = "<tr\(classes.isEmpty ? "" : " class=\"\(classes.joined(separator: " "))\"")>"
        html += "<th scope=\"row\">\(name)\(badges.isEmpty ? "" : " " + badges.joined(separator: " "))</th>"
        for column in columns {
            let (value, shown) = figure(line, column.field)
            html += "<td data-period=\"\(period)\" data-feature=\"\(feature)\" data-field=\"\(column.field)\" "
            html += "data-value=\"\(value)\">\(shown)</td>"
        }
        return html + "</tr>\n"
    }

    /// The JSON's value of `field` (`null` for a ratio without a denominator) and how it reads.
    private static func figure(_ line: FeatureProfitAndLoss, _ field: String) -> (String, String) {
        func amount(_ value: Int64) -> (String, String) { ("\(value)", MicroCredits(value).formatted) }
        func ratio(_ value: Int?) -> (String, String) { value.map { ("\($0)", PnLPage.percent($0)) } ?? ("null", "–") }
        switch field {
        case "charges": return ("\(line.charges)", "\(line.charges)")
        case "charged": return amount(line.charged)
        case "declined": return ("\(line.declined)", "\(line.declined)")
        case "declinedShareBasisPoints": return ratio(line.declinedShareBasisPoints)
        case "givenBack": return amount(line.givenBack)
        case "net": return amount(line.net)
        case "cost": return amount(line.cost)
        case "margin": return amount(line.margin)
        default: return ratio(line.marginBasisPoints)
        }
    }
}
