import CreditLedger
import Foundation
import PnLReport
import Testing
import VoiceDebriefCredit

/// The one-account page read as the owner reads it (issue 26, "A page for everybody"): the headline and the money
/// are `credit pnl --json`'s figures, features are named in the price list's words, dates are written as people
/// write them, every bar is labelled, a one-entry account's balance is drawn, and a subject cannot reorder the page.
@Suite struct PnLPageReadingTests {
    private func page(_ entries: [LedgerEntry], asOf: Timestamp) throws -> (PageReading, ProfitAndLossReport) {
        let report = try ProfitAndLossReport.make(
            entries: entries, asOf: asOf, prices: VoiceDebriefPrices(), costs: VoiceDebriefCosts(),
            money: VoiceDebriefMoney())
        let content = try PnLPageContent(
            report: report, entries: entries, featureNames: VoiceDebriefPrices().featureNames)
        return (PageReading(html: try PnLPage.render(content)), report)
    }

    @Test func theHeadlineAndTheMoneyAreTheFiguresOfTheJSON() throws {
        let (page, report) = try page(MoneyLedger.entries, asOf: MoneyLedger.asOf)
        #expect(try page.embeddedReport() == report)
        let checked = try page.expectFigures(of: report)
        #expect(checked == 3 * (9 + 9 * 2), "two currencies and the credit, every period")
        // Hand-worked: £5.00 in GBR at 15%, proceeds £3.541667; dollars of a storefront of unknown tax.
        #expect(try page.headline()["proceeds GBP"] == "3541667")
        #expect(try page.headline()["proceeds USD"] == "null")
        #expect(page.html.contains("£3.541667") && page.html.contains("USD 4.99"))
        for heading in ["Net takings", "Margin", "Proceeds", "Credit outstanding", "Accounts below zero"] {
            #expect(page.html.contains("<div class=\"what\">\(heading)</div>"), "\(heading)")
        }
    }

    @Test func featuresAreNamedInThePriceListsWordsWithTheirKeys() throws {
        let (page, _) = try page(KnownLedger.entries, asOf: KnownLedger.asOf)
        #expect(page.html.contains("<bdi>A transcript</bdi> <span class=\"feature-key\"><bdi>transcript</bdi></span>"))
        #expect(page.html.contains("<bdi>Creating a vault</bdi>"))
        #expect(page.html.contains("<title>Pushing a vault to a server (pushVault)</title>"), "the chart's tooltip")
    }

    @Test func datesAreWrittenAsPeopleWriteThem() throws {
        let (page, _) = try page(KnownLedger.entries, asOf: KnownLedger.asOf)
        #expect(page.html.contains("As of 29 November 2026, 12:00 UTC"))
        #expect(page.html.contains("from 22 November 2026"), "the 7 days' window")
        #expect(page.html.contains(">19 October 2026</text>"), "the balance chart's first day")
        #expect(!page.shown.contains("2026-11-29"), "no ISO date outside the embedded JSON")
    }

    @Test func everyBarIsLabelledNegativeOnesToo() throws {
        let (page, report) = try page(KnownLedger.entries, asOf: KnownLedger.asOf)
        let bars = page.bars
        let expected = report.periods.reduce(0) { $0 + 2 * $1.features.count + $1.declinesByReason.count }
        #expect(bars.drawn == expected && bars.labelled == expected, "\(bars)")
        #expect(bars.negative > 0 && bars.negativeLabelled == bars.negative, "\(bars)")
    }

    @Test func theBalanceOfAOneEntryAccountIsDrawn() throws {
        let opening = LedgerEntry(
            id: "opening", device: "device-a", sequence: 1, time: KnownLedger.asOf, kind: .opening,
            amount: MicroCredits(5_000_000), balanceAfter: MicroCredits(5_000_000))
        for asOf in [KnownLedger.asOf, KnownLedger.at(3)] {
            let (page, _) = try page([opening], asOf: asOf)
            #expect(page.balanceLines == [2, 2, 2], "a line in every period, as of \(asOf)")
            #expect(!page.html.contains("No entries in this period."))
            #expect(page.html.contains("<circle class=\"point\""))
        }
    }

    /// Issue 35: a balance holds until the next entry moves it, so its line is drawn in steps: every piece of it
    /// level or upright, never sloped.
    @Test func theBalanceIsDrawnInSteps() throws {
        let (page, _) = try page(KnownLedger.entries, asOf: KnownLedger.asOf)
        let lines = page.balancePoints
        #expect(lines.count == 3 && lines.contains { $0.count > 2 }, "\(lines)")
        for line in lines {
            for (from, to) in zip(line, line.dropFirst()) {
                #expect(from.x == to.x || from.y == to.y, "a sloped piece from \(from) to \(to)")
            }
        }
    }

    /// Issue 35: a feature's proceeds are a share of the proceeds kept, said so on the page, not money it earned.
    @Test func aFeaturesProceedsAreSaidToBeAShareNotEarnings() throws {
        let (page, _) = try page(MoneyLedger.entries, asOf: MoneyLedger.asOf)
        let note =
            "The proceeds kept, shared out by each feature&#39;s share of the credit used (not money a feature earned)."
        #expect(
            page.html.contains("<h4>Proceeds by feature in GBP</h4>\n<p class=\"note\">\(note)</p>"), "\(page.html)")
        #expect(page.html.contains("not money it earned"), "the method's paragraph")
    }

    @Test func aRightToLeftOverrideInASubjectOrTextCannotReorderThePage() throws {
        var entries = KnownLedger.entries
        let override = "\u{202E}txet desrever\u{202C}"
        for index in entries.indices where entries[index].id == "refund-c-clean" {
            entries[index].text = "fine " + override + " \u{2067}isolate\u{2069} \u{200F}mark"
        }
        for index in entries.indices where entries[index].id == "c-clean" {
            entries[index].subject = "note \u{202E}1-eton"
        }
        let (page, _) = try page(entries, asOf: KnownLedger.asOf)
        let shown = page.shown
        for control in ["\u{202E}", "\u{202C}", "\u{2067}", "\u{2069}", "\u{200F}"] {
            #expect(!shown.contains(control), "U+\(String(control.unicodeScalars.first!.value, radix: 16))")
        }
        #expect(shown.contains("“<bdi>fine [U+202E]txet desrever[U+202C] [U+2067]isolate[U+2069] [U+200F]mark</bdi>”"))
        #expect(shown.contains("(<bdi>note [U+202E]1-eton</bdi>)"))
        #expect(try page.embeddedReport().periods.count == 3, "the JSON is untouched")
    }
}
