import CreditLedger
import Testing

@Suite struct TakingsTests {
    /// A ledger with charges spread over 40 days, some declined, a top-up; the clock left at day 0.
    private func spreadLedger() throws -> (LedgerFixture, Ledger) {
        let fixture = try LedgerFixture(step: 0)
        fixture.clock.set(day(-50))
        let ledger = try fixture.open()
        func at(_ time: Timestamp, _ body: () throws -> Void) rethrows {
            fixture.clock.set(time)
            try body()
        }
        try at(day(-40)) { try ledger.append(chargeDraft("d-old", pence: 5)) }
        try at(day(-35)) { try ledger.decline("d-old", reason: .notUsable) }
        try at(day(-20)) {
            try ledger.append(chargeDraft("d-mid", pence: 5))
            try ledger.append(chargeDraft("s-mid", pence: 1, feature: "send"))
        }
        try at(day(-3)) { try ledger.append(chargeDraft("d-new", pence: 5)) }
        try at(day(-2)) { try ledger.decline("d-new", reason: .test) }
        try at(day(-1)) {
            try ledger.append(chargeDraft("s-new", pence: 1, feature: "send"))
            try ledger.append(EntryDraft(id: "topup-x", kind: .topup, amount: MicroCredits(5_000_000), reference: "x"))
        }
        // Exactly on the edge of the 7-day window, and a millisecond outside it.
        try at(day(-7)) { try ledger.append(chargeDraft("r-edge", pence: 1, feature: "readNote", subject: "n1")) }
        try at(Timestamp(milliseconds: day(-7).milliseconds - 1)) {
            try ledger.append(chargeDraft("r-out", pence: 1, feature: "readNote", subject: "n2"))
        }
        fixture.clock.set(day(0))
        return (fixture, ledger)
    }

    private func line(_ feature: String, _ charges: Int, _ charged: Int64, _ declined: Int, _ givenBack: Int64)
        -> FeatureTakings
    {
        FeatureTakings(
            feature: feature, charges: charges, charged: MicroCredits(charged * 10_000), declined: declined,
            givenBack: MicroCredits(givenBack * 10_000), net: MicroCredits((charged - givenBack) * 10_000))
    }

    @Test func allTimeTakingsByFeature() throws {
        let (fixture, ledger) = try spreadLedger()
        defer { withExtendedLifetime(fixture) {} }
        let takings = try ledger.takings()
        #expect(
            takings == [
                line("debrief", 3, 15, 2, 10),
                line("readNote", 2, 2, 0, 0),
                line("send", 2, 2, 0, 0),
            ])
    }

    @Test func theLastThirtyDays() throws {
        let (fixture, ledger) = try spreadLedger()
        defer { withExtendedLifetime(fixture) {} }
        #expect(
            try ledger.takings(lastDays: 30) == [
                line("debrief", 2, 10, 1, 5),
                line("readNote", 2, 2, 0, 0),
                line("send", 2, 2, 0, 0),
            ])
        #expect(try ledger.takings(lastDays: 30) == (try ledger.takings(since: day(-30))))
    }

    @Test func theLastSevenDays() throws {
        let (fixture, ledger) = try spreadLedger()
        defer { withExtendedLifetime(fixture) {} }
        #expect(
            try ledger.takings(lastDays: 7) == [
                line("debrief", 1, 5, 1, 5),
                line("readNote", 1, 1, 0, 0),
                line("send", 1, 1, 0, 0),
            ])
    }

    @Test func theWindowMovesWithTheClock() throws {
        let (fixture, ledger) = try spreadLedger()
        fixture.clock.set(day(25))
        #expect(try ledger.takings(lastDays: 7) == [])
        #expect(try ledger.takings(lastDays: 30) == [line("debrief", 1, 5, 1, 5), line("send", 1, 1, 0, 0)])
    }

    @Test func netIsChargedLessGivenBackAndCanBeNegativeInAWindow() throws {
        let (fixture, ledger) = try spreadLedger()
        defer { withExtendedLifetime(fixture) {} }
        // From day -36: d-old's refund is inside, its charge is not.
        let takings = try ledger.takings(since: day(-36))
        let debrief = try #require(takings.first { $0.feature == "debrief" })
        #expect(debrief.charges == 2 && debrief.declined == 2)
        #expect(debrief.net == MicroCredits(0))
        let fromDay35 = try ledger.takings(since: day(-35))
        #expect(fromDay35.first { $0.feature == "debrief" }?.net == MicroCredits(0))
        let narrow = try ledger.takings(since: day(-2))
        #expect(narrow.first { $0.feature == "debrief" } == line("debrief", 0, 0, 1, 5))
        #expect(narrow.first { $0.feature == "debrief" }?.net == MicroCredits(-50_000))
    }

    @Test func takingsCountDistinctIdsOnly() throws {
        let (fixture, ledger) = try spreadLedger()
        // Another device's copy of d-mid (as after a sync) is not counted twice.
        let copy = """
            {"id":"d-mid","device":"other","seq":1,"time":"2026-11-09T12:00:00.000Z","kind":"charge","feature":"debrief","quantity":1,"amount":-50000,"balanceAfter":-50000}

            """
        try writeBytes(Array(copy.utf8), to: fixture.directory + "/ledger/other.jsonl")
        try ledger.refresh()
        #expect(try ledger.takings().first { $0.feature == "debrief" } == line("debrief", 3, 15, 2, 10))
    }

    @Test func totalsForTheCreditScreen() throws {
        let (fixture, ledger) = try spreadLedger()
        defer { withExtendedLifetime(fixture) {} }
        let totals = try ledger.totals()
        #expect(totals.opening == MicroCredits(5_000_000))
        #expect(totals.used == MicroCredits(190_000 - 100_000))
        #expect(totals.toppedUp == MicroCredits(5_000_000))
        #expect(ledger.balance == MicroCredits(10_000_000 - 90_000))
    }
}
