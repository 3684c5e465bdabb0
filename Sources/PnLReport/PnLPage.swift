import Foundation
import LedgerEntries
import LedgerMoney
import SafeText

/// The owner's page (`credit report`, and `credit report --summaries DIR` for all accounts): one self-contained HTML
/// file with the headline figures (net takings, margin, proceeds, credit outstanding, accounts below zero), then for
/// all time, 30 and 7 days the balance over time (one ledger only), net takings and margin by feature, declines by
/// reason, the P&L's table and the money, with the same figures as `credit pnl --json` (which is embedded too, in
/// `<script type="application/json" id="pnl-json">`, and each figure's value on its cell as `data-value`).
///
/// Self-contained: no script, font, image or style from elsewhere, and no `http:` or `https:` anywhere (the charts
/// are inline SVG drawn here; the CSS is inline). Every user-supplied string (a subject, a decline's words, a feature
/// key) is escaped for HTML, isolated in `<bdi>`, and any invisible character that could reorder the page shown as
/// its code (``HTMLText``). Features are named in the price list's words, dates as people write them. It reads at a
/// laptop's width (1280 px) and on a phone's (390 px): the charts scale to their column and the tables scroll
/// sideways inside their box.
///
/// From summaries of many accounts the page says what the figures cannot show: a summary made up under a new key of
/// its own cannot be told from a real account until there is a registry of accounts.
public enum PnLPage {
    /// The page's HTML.
    public static func render(_ content: PnLPageContent) throws -> String {
        let report = content.report
        var html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        html +=
            "<title>\(HTMLText.escape(content.title))</title>\n<style>\(PageStyle.css)</style>\n</head>\n<body>\n<main>\n"
        html += "<header><h1>\(HTMLText.escape(content.title))</h1>\n<p class=\"meta\">As of "
        html += PeopleDate.dayAndTimeHTML(report.asOf)
        html +=
            report.source == .summaries ? " · \(CountNoun("account", "accounts")(report.accounts))" : " · one account"
        html += "</p>\n"
        if let basis = content.basis { html += "<p class=\"meta\">\(HTMLText.escape(basis))</p>\n" }
        html += PageHeadline.html(report) + notes(report) + "</header>\n"
        for period in report.periods {
            html += try section(period, content: content)
        }
        if !content.recentDeclines.isEmpty { html += declines(content.recentDeclines, content: content) }
        html += "</main>\n<script type=\"application/json\" id=\"pnl-json\">\n"
        html += HTMLText.scriptJSON(try json(report)) + "\n</script>\n</body>\n</html>\n"
        return html
    }

    /// The P&L as `credit pnl --json` writes it: keys sorted, indented.
    public static func json(_ report: ProfitAndLossReport) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }

    static let periodTitles = ["all": "All time", "30d": "Last 30 days", "7d": "Last 7 days"]

    /// The method and the placeholders, in one short paragraph.
    private static func notes(_ report: ProfitAndLossReport) -> String {
        let money = report.period("all")?.money
        var sentences: [String] = []
        if report.costsArePlaceholders || money?.placeholders == true {
            let commission =
                money?.commission.flatMap { $0.basisPoints > 0 ? " (\(percent($0.basisPoints)))" : nil } ?? ""
            sentences.append(
                "Every price, cost, commission\(commission) and tax rate is a placeholder: the figures show the shape, "
                    + "not the money.")
        }
        sentences.append(
            "Costs count every charge, declined or not; a feature's proceeds are the proceeds kept shared out by its "
                + "share of the credit used, not money it earned; no "
                + "currency is converted, and where a storefront's tax is unknown no proceeds are worked out. "
                + "Loses money: a margin below zero; often declined: \(percent(report.oftenDeclinedBasisPoints)) of "
                + "its charges or more. The last 30 and 7 days start at midnight UTC, 30 or 7 days before the as-of "
                + "day.")
        if report.source == .summaries {
            sentences.append(
                "A summary made up under a new key of its own cannot be told from a real account until there is a "
                    + "registry of accounts.")
        }
        return "<p class=\"note\">\(HTMLText.escape(sentences.joined(separator: " ")))</p>\n"
    }

    private static func section(_ period: PeriodProfitAndLoss, content: PnLPageContent) throws -> String {
        let title = periodTitles[period.period] ?? period.period
        var html = "<section class=\"period\" id=\"period-\(HTMLText.escape(period.period))\">\n<h2>\(title)"
        if let since = period.since {
            html += " <span class=\"since\">from \(PeopleDate.dayHTML(since))</span>"
        }
        html += "</h2>\n<div class=\"charts\">\n"
        if content.report.source == .ledger {
            let points = balancePoints(
                content.balance, since: period.since.flatMap { Timestamp(iso8601: $0) },
                until: Timestamp(iso8601: content.report.asOf))
            html += figure("Balance over time", SVGCharts.balance(points, caption: "Balance, \(title)"))
        }
        let rows = period.features.map {
            SVGCharts.Row(label: content.name(of: $0.feature), hint: $0.feature, values: [$0.net, $0.margin])
        }
        html += figure(
            "Net takings and margin by feature",
            SVGCharts.bars(rows, classes: ["net", "margin"], caption: "Net takings and margin, \(title)") {
                MicroCredits($0).formatted
            }, legend: "<span class=\"key net\"></span>net takings <span class=\"key margin\"></span>margin")
        let reasons = period.declinesByReason.map {
            SVGCharts.Row(label: reasonWords[$0.reason] ?? $0.reason, hint: $0.reason, values: [Int64($0.count)])
        }
        html += figure(
            "Declines by reason",
            SVGCharts.bars(reasons, classes: ["declines"], caption: "Declines by reason, \(title)") { "\($0)" })
        html += "</div>\n" + PnLTable.html(period, content: content)
        if let money = period.money { html += PageMoney.html(money, period: period.period, content: content) }
        return html + "</section>\n"
    }

    /// The decline reasons in the words the user chose them by.
    static let reasonWords = [
        "not-usable": "Not usable", "not-needed": "Not needed", "test": "A test", "other": "Another reason",
    ]

    private static func figure(_ caption: String, _ chart: String, legend: String? = nil) -> String {
        "<figure><figcaption>\(HTMLText.escape(caption))\(legend.map { " <span class=\"legend\">\($0)</span>" } ?? "")"
            + "</figcaption>\n\(chart)\n</figure>\n"
    }

    /// The points from `since` (with the balance then as the first) to `until` (the balance held to then), at
    /// most 400 of them: the last of each run.
    static func balancePoints(_ points: [BalancePoint], since: Timestamp?, until: Timestamp? = nil) -> [BalancePoint] {
        var kept = points
        if let since {
            let before = points.last { $0.time < since }
            kept =
                (before.map { [BalancePoint(time: since, balance: $0.balance)] } ?? [])
                + points.filter { $0.time >= since }
        }
        kept = thinned(kept)
        if let until, let last = kept.last, last.time < until {
            kept.append(BalancePoint(time: until, balance: last.balance))
        }
        return kept
    }

    private static func thinned(_ points: [BalancePoint]) -> [BalancePoint] {
        let limit = 400
        guard points.count > limit else { return points }
        let step = (points.count + limit - 1) / limit
        var kept = stride(from: step - 1, to: points.count, by: step).map { points[$0] }
        if kept.last != points.last { kept.append(points.last!) }
        return [points[0]] + kept
    }

    private static func declines(_ notes: [DeclineNote], content: PnLPageContent) -> String {
        var html =
            "<section class=\"period\" id=\"declines\">\n<h2>Latest declines, in the user's words</h2>\n<ul class=\"declines\">\n"
        for note in notes {
            html += "<li><span class=\"when\">\(PeopleDate.dayAndTimeHTML(note.time.iso8601))</span> "
            html += "<b>\(HTMLText.isolated(content.name(of: note.feature)))</b> "
            html += HTMLText.isolated(reasonWords[note.reason] ?? note.reason)
            if let text = note.text { html += ": “\(HTMLText.isolated(text))”" }
            if let subject = note.subject { html += " <span class=\"subject\">(\(HTMLText.isolated(subject)))</span>" }
            html += "</li>\n"
        }
        return html + "</ul>\n</section>\n"
    }

    /// Basis points as a percentage with two decimals: `12.34%`.
    static func percent(_ basisPoints: Int) -> String {
        let sign = basisPoints < 0 ? "-" : ""
        let magnitude = abs(basisPoints)
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100)\(fraction == 0 ? "" : "." + (fraction < 10 ? "0" : "") + "\(fraction)")%"
    }
}
