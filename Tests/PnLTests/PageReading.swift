import CreditLedger
import Foundation
import Testing

/// Reads back what a P&L page shows, to hold it against `credit pnl --json`: the embedded JSON, the headline
/// figures, the money cells and the bars of the charts.
struct PageReading {
    var html: String

    /// The P&L embedded in `<script type="application/json" id="pnl-json">`.
    func embeddedReport() throws -> ProfitAndLossReport {
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"pnl-json\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        return try JSONDecoder().decode(
            ProfitAndLossReport.self, from: Data(html[start.upperBound..<end.lowerBound].utf8))
    }

    /// The page without its embedded JSON: what a browser lays out.
    var shown: String {
        guard let start = html.range(of: "<script type=\"application/json\""),
            let end = html.range(of: "</script>", range: start.upperBound..<html.endIndex)
        else { return html }
        return String(html[..<start.lowerBound] + html[end.upperBound...])
    }

    /// The headline figures by name (`net`, `margin`, `outstanding`, `accountsBelowZero`, `proceeds GBP`), as
    /// their `data-value`s.
    func headline() throws -> [String: String] {
        let figure = try Regex(#"data-headline="([^"]*)"(?: data-currency="([^"]*)")? data-value="([^"]*)""#)
        var figures: [String: String] = [:]
        for match in html.matches(of: figure) {
            let name = String(match.output[1].substring!)
            let currency = match.output[2].substring.map { " " + $0 } ?? ""
            figures[name + currency] = String(match.output[3].substring!)
        }
        return figures
    }

    /// Every money cell: its period, its line (a currency or `credit`), field and `data-value`.
    func moneyCells() throws -> [(period: String, line: String, field: String, value: String)] {
        let cell = try Regex(#"data-period="([^"]*)" data-money="([^"]*)" data-field="([^"]*)" data-value="([^"]*)""#)
        return html.matches(of: cell).map {
            (
                String($0.output[1].substring!), String($0.output[2].substring!), String($0.output[3].substring!),
                String($0.output[4].substring!)
            )
        }
    }

    /// How many bars the charts draw, and how many figures label them.
    var bars: (drawn: Int, labelled: Int, negative: Int, negativeLabelled: Int) {
        (
            html.components(separatedBy: "<rect class=\"").count - 1,
            html.components(separatedBy: "<text class=\"value ").count - 1,
            try! html.matches(of: Regex(#"<rect class="[a-z]+ negative""#)).count,
            try! html.matches(of: Regex(#"<text class="value [a-z]+ negative"[^>]*>-"#)).count
        )
    }

    /// The `points` of every balance line, each as its points.
    var balancePoints: [[(x: Double, y: Double)]] {
        let line = try! Regex(#"<polyline class="balance" points="([^"]*)""#)
        return html.matches(of: line).map { match in
            match.output[1].substring!.split(separator: " ").map { pair in
                let parts = pair.split(separator: ",").map { Double($0)! }
                return (parts[0], parts[1])
            }
        }
    }

    /// The `points` of every balance line, each as its number of points.
    var balanceLines: [Int] {
        let line = try! Regex(#"<polyline class="balance" points="([^"]*)""#)
        return html.matches(of: line).map { $0.output[1].substring!.split(separator: " ").count }
    }
}

extension PageReading {
    /// Each money cell's value in `report`'s JSON, or nil when the page names a line or field the JSON lacks.
    static func expected(_ report: ProfitAndLossReport, period: String, line: String, field: String) -> String? {
        guard let money = report.period(period)?.money else { return nil }
        if line == "credit" {
            let credit = money.credit
            let values: [String: Int64] = [
                "sold": credit.sold, "givenFree": credit.givenFree, "simulated": credit.simulated,
                "takenBack": credit.takenBack, "reinstated": credit.reinstated, "used": credit.used,
                "outstanding": credit.outstanding, "belowZero": credit.belowZero,
                "accountsBelowZero": Int64(credit.accountsBelowZero),
            ]
            return values[field].map { "\($0)" }
        }
        guard let currency = money.currencies.first(where: { $0.currency == line }) else { return nil }
        let values: [String: Int64] = [
            "topUps": currency.topUps, "gross": currency.gross, "tax": currency.tax,
            "commission": currency.commission, "proceeds": currency.proceeds, "refunded": currency.refunded,
            "reinstated": currency.reinstated, "kept": currency.kept, "taxUnknownTopUps": currency.taxUnknownTopUps,
        ]
        return values[field].map { "\($0)" }
    }

    /// Checks the headline and every money cell against `report`; returns how many money cells were checked.
    @discardableResult
    func expectFigures(of report: ProfitAndLossReport, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> Int
    {
        let all = try #require(report.period("all"), sourceLocation: sourceLocation)
        let money = try #require(all.money, sourceLocation: sourceLocation)
        let headline = try headline()
        #expect(headline["net"] == "\(all.total.net)", sourceLocation: sourceLocation)
        #expect(headline["margin"] == "\(all.total.margin)", sourceLocation: sourceLocation)
        #expect(headline["outstanding"] == "\(money.credit.outstanding)", sourceLocation: sourceLocation)
        #expect(
            headline["accountsBelowZero"] == "\(money.credit.accountsBelowZero)", sourceLocation: sourceLocation)
        for currency in money.currencies {
            let unknown = currency.topUps > 0 && currency.taxUnknownTopUps == currency.topUps
            #expect(
                headline["proceeds \(currency.currency)"] == (unknown ? "null" : "\(currency.proceeds)"),
                "proceeds in \(currency.currency)", sourceLocation: sourceLocation)
        }
        let cells = try moneyCells()
        for cell in cells {
            let expected = PageReading.expected(report, period: cell.period, line: cell.line, field: cell.field)
            #expect(
                cell.value == expected, "\(cell.period) \(cell.line) \(cell.field)", sourceLocation: sourceLocation)
        }
        let expectedCells = report.periods.reduce(0) { $0 + 9 + 9 * ($1.money?.currencies.count ?? 0) }
        #expect(cells.count == expectedCells, "every money figure is on the page", sourceLocation: sourceLocation)
        return cells.count
    }
}
