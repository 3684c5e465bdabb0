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
        let takings = try FeatureTakings.list(in: ledger)
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
            try FeatureTakings.list(in: ledger, lastDays: 30) == [
                line("debrief", 2, 10, 1, 5),
                line("readNote", 2, 2, 0, 0),
                line("send", 2, 2, 0, 0),
            ])
        #expect(
            try FeatureTakings.list(in: ledger, lastDays: 30) == (try FeatureTakings.list(in: ledger, since: day(-30))))
    }

    @Test func theLastSevenDays() throws {
        let (fixture, ledger) = try spreadLedger()
        defer { withExtendedLifetime(fixture) {} }
        #expect(
            try FeatureTakings.list(in: ledger, lastDays: 7) == [
                line("debrief", 1, 5, 1, 5),
                line("readNote", 1, 1, 0, 0),
                line("send", 1, 1, 0, 0),
            ])
    }

    @Test func theWindowMovesWithTheClock() throws {
        let (fixture, ledger) = try spreadLedger()
        fixture.clock.set(day(25))
        #expect(try FeatureTakings.list(in: ledger, lastDays: 7) == [])
        #expect(
            try FeatureTakings.list(in: ledger, lastDays: 30) == [
                line("debrief", 1, 5, 1, 5), line("send", 1, 1, 0, 0),
            ])
    }

    @Test func netIsChargedLessGivenBackAndCanBeNegativeInAWindow() throws {
        let (fixture, ledger) = try spreadLedger()
        defer { withExtendedLifetime(fixture) {} }
        // From day -36: d-old's refund is inside, its charge is not.
        let takings = try FeatureTakings.list(in: ledger, since: day(-36))
        let debrief = try #require(takings.first { $0.feature == "debrief" })
        #expect(debrief.charges == 2 && debrief.declined == 2)
        #expect(debrief.net == MicroCredits(0))
        let fromDay35 = try FeatureTakings.list(in: ledger, since: day(-35))
        #expect(fromDay35.first { $0.feature == "debrief" }?.net == MicroCredits(0))
        let narrow = try FeatureTakings.list(in: ledger, since: day(-2))
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
        #expect(try FeatureTakings.list(in: ledger).first { $0.feature == "debrief" } == line("debrief", 3, 15, 2, 10))
    }

    /// The sums are kept beside the entries as they are counted; they must agree with sums made from the distinct
    /// entries themselves after everything that changes what counts: appends, declines, another device's file read
    /// in (with a copy of an entry), a file cut back under the ledger (all read again), and a reopen.
    @Test func theKeptSumsAgreeWithTheEntriesAfterEveryChange() throws {
        let (fixture, ledger) = try spreadLedger()
        func expectAgreement(_ what: String, _ ledger: Ledger, sourceLocation: SourceLocation = #_sourceLocation) throws
        {
            for since in [nil, day(-30), day(-7), day(-2)] {
                #expect(
                    try FeatureTakings.list(in: ledger, since: since)
                        == (try FeatureTakings.list(of: ledger.distinctEntriesUnordered, since: since)),
                    "\(what), since \(since.map(\.description) ?? "ever")", sourceLocation: sourceLocation)
            }
            let totals = try LedgerTotals(of: ledger)
            let distinct = Array(ledger.distinctEntriesUnordered)
            func sum(_ kinds: Set<EntryKind>) -> Int64 {
                distinct.filter { kinds.contains($0.kind) }.reduce(0) { $0 + $1.amount.rawValue }
            }
            #expect(totals.opening.rawValue == sum([.opening]), "\(what)", sourceLocation: sourceLocation)
            #expect(totals.used.rawValue == -sum([.charge, .refund]), "\(what)", sourceLocation: sourceLocation)
            #expect(totals.toppedUp.rawValue == sum([.topup, .reversal]), "\(what)", sourceLocation: sourceLocation)
        }
        try expectAgreement("as built", ledger)
        try ledger.append(chargeDraft("late", pence: 3, feature: "transcript"))
        try ledger.decline("s-new", reason: .notNeeded)
        try expectAgreement("after an append and a decline", ledger)
        let other = """
            {"id":"d-mid","device":"other","seq":1,"time":"2026-11-09T12:00:00.000Z","kind":"charge","feature":"debrief","quantity":1,"amount":-50000,"balanceAfter":-50000}
            {"id":"o-1","device":"other","seq":2,"time":"2026-11-28T12:00:00.000Z","kind":"charge","feature":"addServer","quantity":1,"amount":-10000,"balanceAfter":-60000}

            """
        let otherPath = fixture.directory + "/ledger/other.jsonl"
        try writeBytes(Array(other.utf8), to: otherPath)
        try ledger.refresh()
        try expectAgreement("after another device's file", ledger)
        #expect(try FeatureTakings.list(in: ledger).contains { $0.feature == "addServer" })
        // Cut back under the ledger: everything is read again from the start.
        try writeBytes(Array((other.split(separator: "\n")[0] + "\n").utf8), to: otherPath)
        try ledger.refresh()
        try expectAgreement("after a file was cut back", ledger)
        #expect(try !FeatureTakings.list(in: ledger).contains { $0.feature == "addServer" })
        try expectAgreement("reopened", try fixture.open())
    }

    @Test func totalsForTheCreditScreen() throws {
        let (fixture, ledger) = try spreadLedger()
        defer { withExtendedLifetime(fixture) {} }
        let totals = try LedgerTotals(of: ledger)
        #expect(totals.opening == MicroCredits(5_000_000))
        #expect(totals.used == MicroCredits(190_000 - 100_000))
        #expect(totals.toppedUp == MicroCredits(5_000_000))
        #expect(ledger.balance == MicroCredits(10_000_000 - 90_000))
    }
}
