import CreditLedger
import Foundation
import PnLReport
import Testing
import VoiceDebriefCredit

@Suite struct PnLPageTests {
    private func page() throws -> (html: String, report: ProfitAndLossReport) {
        let report = try ProfitAndLossReport.make(
            entries: KnownLedger.entries, asOf: KnownLedger.asOf, prices: VoiceDebriefPrices(),
            costs: KnownLedger.Costs())
        let content = try PnLPageContent(report: report, entries: KnownLedger.entries)
        return (try PnLPage.render(content), report)
    }

    @Test func thePageHasNoNetworkReferenceAndEscapesWhatUsersWrote() throws {
        let html = try page().html
        let lowered = html.lowercased()
        #expect(!lowered.contains("http:") && !lowered.contains("https:"))
        #expect(!lowered.contains("<link") && !lowered.contains("<img") && !lowered.contains(" src=\""))
        #expect(!lowered.contains("@import") && !lowered.contains("url("))
        // The only script block is the JSON, which a browser does not run.
        #expect(lowered.components(separatedBy: "<script").count == 2)
        #expect(lowered.contains("<script type=\"application/json\" id=\"pnl-json\">"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the decline's words, escaped")
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt; note"), "the subject, escaped")
        #expect(html.contains("<svg viewBox="), "charts drawn inline")
    }

    @Test func theFiguresOnThePageAreTheJSONs() throws {
        let (html, report) = try page()
        // The embedded JSON is the P&L's.
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"pnl-json\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let embedded = try JSONDecoder().decode(
            ProfitAndLossReport.self, from: Data(html[start.upperBound..<end.lowerBound].utf8))
        #expect(embedded == report)
        // And every figure in the tables is the JSON's value.
        let cells = try Regex(
            #"data-period="([^"]*)" data-feature="([^"]*)" data-field="([^"]*)" data-value="([^"]*)""#)
        let json = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        let periods = try #require(json["periods"] as? [[String: Any]])
        var checked = 0
        for match in html.matches(of: cells) {
            let (period, feature, field, value) = (
                String(match.output[1].substring!), String(match.output[2].substring!),
                String(match.output[3].substring!), String(match.output[4].substring!)
            )
            let periodObject = try #require(periods.first { $0["period"] as? String == period })
            let line =
                feature == "total"
                ? periodObject["total"] as? [String: Any]
                : (periodObject["features"] as? [[String: Any]])?.first { $0["feature"] as? String == feature }
            let expected = try #require(line?[field], "\(period) \(feature) \(field)")
            #expect(value == (expected is NSNull ? "null" : "\(expected)"), "\(period) \(feature) \(field)")
            checked += 1
        }
        let lines = report.periods.reduce(0) { $0 + $1.features.count + 1 }
        #expect(checked == lines * 9)
        #expect(html.contains("loses money") && html.contains("often declined"))
    }

    @Test func aPageOfSummariesSaysWhatASignatureCannotShow() throws {
        var report = try page().report
        report.source = .summaries
        report.accounts = 3
        let html = try PnLPage.render(PnLPageContent(summaries: report))
        #expect(html.contains("cannot be told from a real account until there is a registry of accounts"))
        #expect(html.contains("3 accounts"))
    }

    /// Headless Chromium renders the page at a laptop's and a phone's width; each screenshot shows the page.
    @Test(.enabled(if: SlowStage.isOn, SlowStage.reason), .timeLimit(.minutes(3)))
    func chromiumRendersThePageAtALaptopsAndAPhonesWidth() async throws {
        let temporary = try TemporaryDirectory()
        let pagePath = try temporary.write(try page().html, to: "report.html")
        try await PageScreenshots.expectDrawn(pagePath, name: "page", in: temporary)
    }
}
