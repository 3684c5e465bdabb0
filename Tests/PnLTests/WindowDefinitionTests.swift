import AccountSummaries
import CreditLedger
import Foundation
import Signing
import Testing
import VoiceDebriefCredit

/// Issue 26: one "last 7 days" for a ledger's P&L and for the summaries' (and so `analytics/pnl.sh`, whose SQL counts
/// days the summaries' way): from midnight UTC on the day 7 days before the as-of day.
@Suite struct WindowDefinitionTests {
    private let asOf = Timestamp(iso8601: "2026-11-29T12:00:00.000Z")!

    private func charge(_ id: String, at time: String, feature: String = "debrief", pence: Int64 = 5) -> LedgerEntry {
        LedgerEntry(
            id: id, device: "d", sequence: 1, time: Timestamp(iso8601: time)!, kind: .charge, feature: feature,
            amount: MicroCredits(-pence * 10_000), balanceAfter: .zero)
    }

    @Test func theWindowStartsAtMidnightSevenDaysBeforeTheAsOfDay() {
        #expect(ProfitAndLossReport.windowStart(asOf: asOf, days: 7).iso8601 == "2026-11-22T00:00:00.000Z")
        #expect(ProfitAndLossReport.windowStart(asOf: asOf, days: 30).iso8601 == "2026-10-30T00:00:00.000Z")
    }

    /// A charge in what used to be the gap (on the first day of the window, before the as-of time of day) counts in
    /// both, and one the evening before counts in neither.
    @Test func aChargeInTheGapCountsTheSameForALedgerAndForItsSummary() throws {
        let entries = [
            charge("in-the-gap", at: "2026-11-22T06:00:00.000Z"),
            charge("day-before", at: "2026-11-21T23:00:00.000Z", pence: 7),
            charge("yesterday", at: "2026-11-28T10:00:00.000Z", pence: 11),
        ]
        let ledger = try ProfitAndLossReport.make(
            entries: entries, asOf: asOf, prices: VoiceDebriefPrices(), costs: VoiceDebriefCosts())
        let week = try #require(ledger.period("7d"))
        #expect(week.since == "2026-11-22T00:00:00.000Z")
        #expect(week.total.charged == 160_000, "the gap's charge and yesterday's: \(week.total)")
        let key = try P256PrivateKey.generate()
        let summary = try AccountSummary.make(
            entries: entries, exportedAt: asOf, prices: VoiceDebriefPrices(), costs: VoiceDebriefCosts(),
            headKey: key)
        let all = try SummaryTotaliser.total([("s.json", summary)], asOf: asOf, tax: .app)
        let summed = try #require(all.report.period("7d"))
        #expect(summed.since == week.since)
        #expect(summed.total == week.total, "the same window, to the micro-credit")
    }
}
