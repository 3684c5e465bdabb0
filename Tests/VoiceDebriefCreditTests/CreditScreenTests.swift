import CreditLedger
import Payments
import Testing
import TopUp
import VoiceDebriefCredit

@Suite struct CreditScreenTests {
    @Test func theSentenceIsTheOwnersWordForWord() {
        #expect(CreditScreen.belowZeroSentence == "Nothing is blocked, and nothing will be. Top up when it feels fair.")
    }

    @Test func aboveZeroNothingIsSaid() throws {
        let app = try AppFixture()
        try app.meter().charge(ChargeRequest("debrief"))
        let screen = try CreditScreen(ledger: app.ledger, prices: VoiceDebriefPrices())
        #expect(screen.balance == MicroCredits(4_950_000))
        #expect(!screen.isBelowZero)
        #expect(screen.overBy == .zero)
    }

    @Test func atZeroItIsNotBelow() throws {
        let app = try AppFixture()
        try app.ledger.append(
            EntryDraft(id: "all", kind: .charge, feature: "debrief", amount: MicroCredits(-5_000_000)))
        let screen = try CreditScreen(ledger: app.ledger, prices: VoiceDebriefPrices())
        #expect(screen.balance == .zero)
        #expect(!screen.isBelowZero)
        #expect(screen.overBy == .zero)
    }

    @Test func belowZeroItSaysHowFarOverAndBlocksNothing() throws {
        let app = try AppFixture()
        let meter = app.meter()
        for index in 0..<50 { try meter.charge(ChargeRequest("createVault", subject: "vault-\(index)")) }
        // £5.00 less 50 × 10p = £0.00; one more debrief takes it 5p over, and it is still charged.
        #expect(try meter.charge(ChargeRequest("debrief")).entry != nil)
        try meter.charge(ChargeRequest("transcript", seconds: 76))
        let screen = try CreditScreen(ledger: app.ledger, prices: VoiceDebriefPrices())
        #expect(screen.isBelowZero)
        #expect(screen.balance == MicroCredits(-110_000))
        #expect(screen.overBy == MicroCredits(110_000))
        #expect(screen.overBy.formatted == "£0.11")
        #expect(screen.used == MicroCredits(5_110_000))
    }

    @Test func theRowsAreTheDistinctEntriesNewestFirstWithRunningBalances() throws {
        let app = try AppFixture()
        let meter = app.meter()
        for index in 0..<40 {
            try meter.charge(ChargeRequest(index % 3 == 0 ? "debrief" : "send", subject: "n\(index)"))
        }
        let screen = try CreditScreen(ledger: app.ledger, prices: VoiceDebriefPrices())
        let expected = app.ledger.distinctEntries
        #expect(screen.entries.count == expected.count)
        var running = MicroCredits.zero
        var balances: [MicroCredits] = []
        for entry in expected {
            running = try running.adding(entry.amount)
            balances.append(running)
        }
        #expect(screen.entries.map(\.entry) == expected.reversed())
        #expect(screen.entries.map(\.balanceAfter) == balances.reversed())
        #expect(screen.entries.first?.balanceAfter == screen.balance)
        #expect(screen.entries[screen.entries.count - 1].entry.kind == .opening)
        #expect(screen.entries[3].entry == expected[expected.count - 4])
    }

    @Test func theScreenHoldsEverythingNewestFirst() throws {
        let app = try AppFixture()
        let meter = app.meter()
        let charge = try #require(try meter.charge(ChargeRequest("debrief", subject: "n1")).entry)
        try meter.charge(ChargeRequest("send", subject: "n1"))
        try app.ledger.decline(charge.id, reason: .notUsable)
        try app.ledger.append(
            EntryDraft(
                id: "topup-simulated-S1", kind: .topup, amount: MicroCredits(5_000_000),
                text: "Top-up (simulated, no money taken)",
                reference: "S1", product: "ai.voicedebrief.app.credit.500"))
        let screen = try CreditScreen(ledger: app.ledger, prices: VoiceDebriefPrices())
        #expect(screen.entries.map(\.entry.kind) == [.topup, .refund, .charge, .charge, .opening])
        #expect(screen.entries.map(\.balanceAfter.rawValue) == [9_990_000, 4_990_000, 4_940_000, 4_950_000, 5_000_000])
        #expect(screen.balance == MicroCredits(9_990_000))
        #expect(screen.used == MicroCredits(10_000))
        #expect(screen.toppedUp == MicroCredits(5_000_000))
        #expect(screen.takingsAllTime.map(\.feature) == ["debrief", "send"])
        #expect(screen.takingsAllTime.first?.declined == 1)
        #expect(screen.takings7Days == screen.takingsAllTime)
        #expect(screen.takings30Days == screen.takingsAllTime)
        #expect(screen.prices.map(\.key) == VoiceDebriefPrices().items.map(\.key))
        #expect(screen.prices.allSatisfy { $0.isPlaceholder })
    }

    @Test func theSimulatedTopUpSaysNoMoneyIsTaken() async throws {
        let app = try AppFixture()
        let flow = TopUpFlow(
            ledger: app.ledger, store: VoiceDebriefStore.simulatedStore(makeReference: { "SIM-1" }), verifier: nil,
            catalogue: VoiceDebriefStore.packs, bundleID: VoiceDebriefStore.bundleID)
        let result = try await flow.topUp()
        guard case .credited(let entry) = result else {
            Issue.record("expected credited, got \(result)")
            return
        }
        #expect(entry.text == "Top-up (simulated, no money taken)")
        #expect(entry.kind == .topup)
        #expect(entry.amount == MicroCredits(5_000_000))
        #expect(entry.id == "topup-simulated-SIM-1")
        #expect(app.ledger.balance == MicroCredits(10_000_000))
        // The same payment again is the same entry.
        #expect(try await flow.topUp() == .alreadyCredited(entry))
        #expect(app.ledger.balance == MicroCredits(10_000_000))
        #expect(try CreditApp.verify(app.ledger, files: nil).simulatedTopUps == 1)
    }
}

@Suite struct VoiceDebriefStoreTests {
    @Test func theAppsPacksAndBundleAreTodays() {
        #expect(VoiceDebriefStore.bundleID == "ai.voicedebrief.app")
        // The owner's note: "Top-up: One pack of £5.00."
        #expect(VoiceDebriefStore.packs.credits == ["ai.voicedebrief.app.credit.500": MicroCredits(5_000_000)])
        #expect(VoiceDebriefStore.packs.defaultProduct == "ai.voicedebrief.app.credit.500")
        #expect(VoiceDebriefStore.simulatedPack.id == VoiceDebriefStore.packs.defaultProduct)
        #expect(VoiceDebriefStore.simulatedPack.displayPrice == "£5.00")
    }
}
