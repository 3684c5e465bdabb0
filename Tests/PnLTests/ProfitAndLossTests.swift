import CreditLedger
import Foundation
import Testing
import VoiceDebriefCredit

/// One expected line: the sums, then the derived figures, all by hand.
private struct Expected {
    var feature: String
    var charges: Int
    var charged: Int64
    var declined: Int
    var givenBack: Int64
    var cost: Int64
    var net: Int64
    var margin: Int64
    var share: Int?
    var marginBP: Int?
    var loses: Bool
    var often: Bool

    func check(_ line: FeatureProfitAndLoss, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(line.feature == feature, sourceLocation: sourceLocation)
        #expect(
            [Int64(line.charges), line.charged, Int64(line.declined), line.givenBack, line.cost, line.net, line.margin]
                == [Int64(charges), charged, Int64(declined), givenBack, cost, net, margin],
            "\(feature)", sourceLocation: sourceLocation)
        #expect(line.declinedShareBasisPoints == share, "\(feature) share", sourceLocation: sourceLocation)
        #expect(line.marginBasisPoints == marginBP, "\(feature) margin %", sourceLocation: sourceLocation)
        #expect(line.losesMoney == loses, "\(feature) loses", sourceLocation: sourceLocation)
        #expect(line.oftenDeclined == often, "\(feature) often declined", sourceLocation: sourceLocation)
    }
}

@Suite struct ProfitAndLossTests {
    private func report() throws -> ProfitAndLossReport {
        try ProfitAndLossReport.make(
            entries: KnownLedger.entries, asOf: KnownLedger.asOf, prices: VoiceDebriefPrices(),
            costs: KnownLedger.Costs())
    }

    @Test func allTimeToTheMicroCreditWithTranscriptsCostPerStartedMinute() throws {
        let all = try #require(try report().period("all"))
        let expected = [
            // 2 + 5 started minutes at 4,300: 30,100; half the charges declined.
            Expected(
                feature: "transcript", charges: 2, charged: 210_000, declined: 1, givenBack: 150_000, cost: 30_100,
                net: 60_000, margin: 29_900, share: 5_000, marginBP: 4_983, loses: false, often: true),
            Expected(
                feature: "createVault", charges: 1, charged: 100_000, declined: 0, givenBack: 0, cost: 0, net: 100_000,
                margin: 100_000, share: 0, marginBP: 10_000, loses: false, often: false),
            Expected(
                feature: "debrief", charges: 2, charged: 100_000, declined: 0, givenBack: 0, cost: 4_300, net: 100_000,
                margin: 95_700, share: 0, marginBP: 9_570, loses: false, often: false),
            // Four files at 300 each.
            Expected(
                feature: "saveToVault", charges: 1, charged: 40_000, declined: 0, givenBack: 0, cost: 1_200,
                net: 40_000, margin: 38_800, share: 0, marginBP: 9_700, loses: false, often: false),
            // Declined, yet its cost counts: the work was served.
            Expected(
                feature: "cleanPassage", charges: 1, charged: 10_000, declined: 1, givenBack: 10_000, cost: 12_000,
                net: 0, margin: -12_000, share: 10_000, marginBP: nil, loses: true, often: true),
            // Three things moved, priced once: costed once.
            Expected(
                feature: "pushVault", charges: 1, charged: 10_000, declined: 0, givenBack: 0, cost: 500, net: 10_000,
                margin: 9_500, share: 0, marginBP: 9_500, loses: false, often: false),
        ]
        #expect(all.features.map(\.feature) == expected.map(\.feature))
        for (line, want) in zip(all.features, expected) { want.check(line) }
        Expected(
            feature: "total", charges: 8, charged: 470_000, declined: 2, givenBack: 160_000, cost: 48_100,
            net: 310_000, margin: 261_900, share: 2_500, marginBP: 8_448, loses: false, often: true
        ).check(all.total)
        #expect(
            all.declinesByReason == [
                DeclineReasonCount(reason: "not-usable", count: 1, givenBack: 150_000),
                DeclineReasonCount(reason: "other", count: 1, givenBack: 10_000),
            ])
        #expect(all.days == nil && all.since == nil)
    }

    @Test func thirtyAndSevenDays() throws {
        let report = try report()
        #expect(report.periods.map(\.period) == ["all", "30d", "7d"])
        let month = try #require(report.period("30d"))
        // From midnight UTC of the day 30 days back, as summaries count (issue 26: one definition).
        #expect(month.since == "2026-10-30T00:00:00.000Z")
        Expected(
            feature: "transcript", charges: 1, charged: 150_000, declined: 1, givenBack: 150_000, cost: 21_500, net: 0,
            margin: -21_500, share: 10_000, marginBP: nil, loses: true, often: true
        ).check(month.features[0])
        Expected(
            feature: "total", charges: 7, charged: 410_000, declined: 2, givenBack: 160_000, cost: 39_500,
            net: 250_000, margin: 210_500, share: 2_857, marginBP: 8_420, loses: false, often: true
        ).check(month.total)
        let week = try #require(report.period("7d"))
        #expect(week.features.map(\.feature) == ["createVault", "debrief", "saveToVault", "cleanPassage", "pushVault"])
        Expected(
            feature: "total", charges: 6, charged: 260_000, declined: 1, givenBack: 10_000, cost: 18_000,
            net: 250_000, margin: 232_000, share: 1_667, marginBP: 9_280, loses: false, often: false
        ).check(week.total)
        #expect(week.declinesByReason == [DeclineReasonCount(reason: "other", count: 1, givenBack: 10_000)])
        #expect(report.accounts == 1 && report.source == .ledger && report.costsArePlaceholders)
    }

    /// A share is rounded to the nearest basis point, a half up (away from zero for a margin below it), never cut:
    /// 1 of 6 declined is 16.67%, not 16.66%.
    @Test func sharesAreRoundedToTheNearestBasisPoint() throws {
        func line(charges: Int, charged: Int64 = 600_000, declined: Int, cost: Int64 = 0) throws
            -> FeatureProfitAndLoss
        {
            try FeatureProfitAndLoss(
                feature: "debrief", charges: charges, charged: charged, declined: declined, givenBack: 0, cost: cost,
                oftenDeclinedBasisPoints: 2_000)
        }
        #expect(try line(charges: 6, declined: 1).declinedShareBasisPoints == 1_667)
        #expect(try line(charges: 3, declined: 2).declinedShareBasisPoints == 6_667)
        #expect(try line(charges: 20_000, declined: 1).declinedShareBasisPoints == 1, "a half, up")
        #expect(try line(charges: 40_000, declined: 1).declinedShareBasisPoints == 0, "a quarter, down")
        #expect(try line(charges: 8, declined: 1).declinedShareBasisPoints == 1_250, "exact stays exact")
        // A margin of -1/6 of the net: -1666.67 basis points.
        #expect(try line(charges: 1, declined: 0, cost: 700_000).marginBasisPoints == -1_667)
        #expect(try line(charges: 1, charged: 20_000, declined: 0, cost: 20_001).marginBasisPoints == -1, "-0.5")
    }

    @Test func theJSONKeepsEveryKeyWithNullForARatioWithoutADenominator() throws {
        let data = try JSONEncoder().encode(try report())
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "format", "source", "asOf", "accounts", "costsArePlaceholders", "oftenDeclinedBasisPoints", "periods",
            ])
        let periods = try #require(object["periods"] as? [[String: Any]])
        #expect(periods[0]["days"] is NSNull && periods[0]["since"] is NSNull)
        let clean = try #require(
            (periods[0]["features"] as? [[String: Any]])?.first { $0["feature"] as? String == "cleanPassage" })
        #expect(clean["marginBasisPoints"] is NSNull)
        #expect(clean.count == 12)
        let decoded = try JSONDecoder().decode(ProfitAndLossReport.self, from: data)
        #expect(decoded == (try report()))
    }

    @Test func aRealLedgerThroughTheAppsMeterAndCostList() throws {
        let temporary = try TemporaryDirectory()
        let clock = FixedClock(KnownLedger.asOf, step: 1000)
        let ids = SequentialIDs(prefix: "id")
        let ledger = try CreditApp.openLedger(directory: temporary.path + "/data", clock: clock, ids: ids)
        let meter = CreditApp.meter(for: ledger, ids: ids)
        guard case .charged(let transcript) = try meter.charge(ChargeRequest("transcript", seconds: 76)) else {
            Issue.record("the transcript was not charged")
            return
        }
        try meter.charge(ChargeRequest("debrief", subject: "note"))
        _ = try ledger.decline(transcript.id, reason: .notUsable)
        let report = try ProfitAndLossReport.make(
            ledger: ledger,
            asOf: clock.now(), prices: VoiceDebriefPrices(), costs: VoiceDebriefCosts())
        let all = try #require(report.period("all"))
        // 76 seconds is two started minutes: 6p charged, 2 × 4,800 to serve, all given back.
        Expected(
            feature: "transcript", charges: 1, charged: 60_000, declined: 1, givenBack: 60_000, cost: 9_600, net: 0,
            margin: -9_600, share: 10_000, marginBP: nil, loses: true, often: true
        ).check(try #require(all.features.first { $0.feature == "transcript" }))
        Expected(
            feature: "debrief", charges: 1, charged: 50_000, declined: 0, givenBack: 0, cost: 2_500, net: 50_000,
            margin: 47_500, share: 0, marginBP: 9_500, loses: false, often: false
        ).check(try #require(all.features.first { $0.feature == "debrief" }))
        #expect(report.period("7d")?.total == all.total)
    }

    @Test func everyPricedKeyHasACostLineAndEveryFigureIsAPlaceholder() {
        let costs = VoiceDebriefCosts()
        #expect(costs.keysWithoutCost(in: VoiceDebriefPrices()).isEmpty, "priced keys with no cost line")
        #expect(Set(costs.items.map(\.key)).count == costs.items.count, "a key with two cost lines")
        #expect(costs.items.allSatisfy { $0.isPlaceholder && $0.cost >= .zero })
        // Speech-to-text and model calls cost a fraction of a penny.
        for key in ["transcript", "debrief", "cleanPassage"] {
            let cost = costs.item(for: key)?.cost ?? .zero
            #expect(cost > .zero && cost < .penny, "\(key) should cost a fraction of a penny")
        }
    }

    @Test func aPriceListWithAKeyTheCostListLacksIsCaught() {
        struct Shorter: CostList {
            let items = VoiceDebriefCosts().items.filter { $0.key != "debrief" }
        }
        #expect(Shorter().keysWithoutCost(in: VoiceDebriefPrices()) == ["debrief"])
    }
}
