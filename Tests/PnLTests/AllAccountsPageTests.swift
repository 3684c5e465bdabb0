import AccountSummaries
import CreditLedger
import Foundation
import Signing
import Testing
import VoiceDebriefCredit

/// `credit report --summaries DIR` (issue 26, "A page for everybody"): the all-accounts page of three accounts (one
/// with money in pounds and dollars, one with a simulated top-up, one below zero), through the real binary, held
/// against `credit pnl --summaries DIR --json`, written 0644, and drawn by headless Chromium at 1280 and 390 px.
@Suite struct AllAccountsPageTests {
    private static let asOf = "2026-11-29T12:00:00.000Z"

    /// Three accounts' summaries, each under its own key.
    private func summaries() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let belowZero = [
            MoneyLedger.entry(1, "opening", "2026-11-01", .opening, 5_000_000),
            MoneyLedger.entry(2, "c-long", "2026-11-27", .charge, -6_000_000, feature: "transcript", quantity: 200),
        ]
        for (name, entries) in [
            ("money", MoneyLedger.entries), ("known", KnownLedger.entries), ("below-zero", belowZero),
        ] {
            let summary = try AccountSummary.make(
                entries: entries, exportedAt: MoneyLedger.asOf, prices: VoiceDebriefPrices(),
                costs: VoiceDebriefCosts(), money: VoiceDebriefMoney(), headKey: try P256PrivateKey.generate())
            try Data(try summary.encodedJSON()).write(to: URL(fileURLWithPath: directory.file(name + ".json")))
        }
        return directory
    }

    private func credit(_ arguments: [String], in temporary: TemporaryDirectory) async throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["CREDIT_NOW"] = AllAccountsPageTests.asOf
        return try await ChildProcess.run(
            try Binaries.require("credit"), ["--data-dir", temporary.file("data")] + arguments,
            environment: environment, timeout: 300)
    }

    private func report(_ directory: TemporaryDirectory) async throws -> (
        page: PageReading, path: String, json: ProfitAndLossReport
    ) {
        let out = directory.file("page.html")
        let written = try await credit(["report", "--summaries", directory.path, "--out", out], in: directory)
        #expect(written.succeeded && written.stdout.contains(out), "\(written)")
        let pnl = try await credit(["pnl", "--summaries", directory.path, "--json"], in: directory)
        #expect(pnl.succeeded, "\(pnl)")
        let json = try JSONDecoder().decode(ProfitAndLossReport.self, from: Data(pnl.stdout.utf8))
        return (PageReading(html: try String(contentsOfFile: out, encoding: .utf8)), out, json)
    }

    @Test func thePageShowsTheFiguresOfPnlSummariesJSON() async throws {
        let directory = try summaries()
        let (page, _, json) = try await report(directory)
        #expect(json.source == .summaries && json.accounts == 3)
        #expect(try page.embeddedReport() == json, "the page's P&L is credit pnl --summaries --json's")
        try page.expectFigures(of: json)
        let money = try #require(json.period("all")?.money)
        #expect(money.credit.accountsBelowZero == 1 && money.credit.belowZero == 1_000_000)
        #expect(try page.headline()["accountsBelowZero"] == "1")
        // The feature tables' cells are the JSON's too.
        let cells = try Regex(#"data-period="([^"]*)" data-feature="([^"]*)" data-field="net" data-value="([^"]*)""#)
        var checked = 0
        for match in page.html.matches(of: cells) {
            let period = try #require(json.period(String(match.output[1].substring!)))
            let feature = String(match.output[2].substring!)
            let line = feature == "total" ? period.total : period.features.first { $0.feature == feature }
            #expect(match.output[3].substring.map(String.init) == line.map { "\($0.net)" }, "\(feature)")
            checked += 1
        }
        #expect(checked == json.periods.reduce(0) { $0 + $1.features.count + 1 })
        #expect(page.html.contains("3 accounts counted, from 3 summaries"))
        #expect(page.html.contains("As of 29 November 2026, 12:00 UTC · 3 accounts"))
        #expect(page.html.contains("registry of accounts"))
        let bars = page.bars
        #expect(bars.drawn > 0 && bars.labelled == bars.drawn && bars.negativeLabelled == bars.negative, "\(bars)")
    }

    @Test func thePageIsWrittenReadableByOthers() async throws {
        let directory = try summaries()
        let (_, path, _) = try await report(directory)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o644, "mode \(String(mode, radix: 8))")
    }

    @Test func aDirectoryWithNothingToCountIsSaidSoAndWritesNothing() async throws {
        let empty = try TemporaryDirectory()
        let out = empty.file("page.html")
        let result = try await credit(["report", "--summaries", empty.path, "--out", out], in: empty)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("there are no summaries in \(empty.path)"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test(.enabled(if: SlowStage.isOn, SlowStage.reason), .timeLimit(.minutes(4)))
    func chromiumDrawsTheAllAccountsPageAtALaptopsAndAPhonesWidth() async throws {
        let directory = try summaries()
        let (_, path, _) = try await report(directory)
        try await PageScreenshots.expectDrawn(path, name: "all-accounts", in: directory)
    }
}
