import CreditLedger
import Foundation
import Payments
import Signing
import Testing
import TopUp

/// Two devices of one account that see a transaction's refunds at different moments (issue 25 item 2): each step is
/// named by the store's refund event, so both write the same entries or entries that together say what the store
/// says, and their ledgers merge both ways.
extension TopUpFlowTests {
    /// A second device of this account, joined now: its ledger and a flow on it.
    private func joinedDevice(_ store: FakeStore) throws -> (ledger: Ledger, directory: String, flow: TopUpFlow) {
        let other = directory + "-b"
        _ = try AccountSync.join(directory: other, account: directory, ids: SequentialIDs(prefix: "b"))
        let joined = try Ledger.openSigned(
            directory: other, clock: FixedClock(Timestamp(milliseconds: 1_764_400_000_000), step: 1000),
            ids: SequentialIDs(prefix: "b"))
        let flow = TopUpFlow(
            ledger: joined, store: store, verifier: verifier(secret), catalogue: TopUpFlowTests.packs,
            bundleID: "ai.voicedebrief.app")
        return (joined, other, flow)
    }

    private func steps(_ ledger: Ledger, _ reference: String) -> [String] {
        ledger.refundSteps(reference: reference).map(\.id)
    }

    @Test func devicesThatSawAPartialRefundAtDifferentMomentsMergeBothWays() async throws {
        let store = FakeStore(signer: .hs256(secret: secret))
        guard case .credited(let topUp) = try await flow(store).topUp() else {
            Issue.record("no credit")
            return
        }
        let id = topUp.reference!
        let b = try joinedDevice(store)
        let cursorB = try await b.flow.collect(updatesAfter: nil).cursor
        // A sees every state: 50% refunded, the refund reversed, 25% refunded.
        let first: Int64 = 1_764_500_000_000
        let second: Int64 = 1_764_600_000_000
        try store.refund(id, milliPercent: 50_000, date: first)
        let half = try await flow(store).collect(updatesAfter: nil)
        #expect(half.reversed.map(\.amount) == [MicroCredits(-2_500_000)])
        try store.reverseRefund(id)
        let reversed = try await flow(store).collect(updatesAfter: "1")
        #expect(reversed.credited.map(\.amount) == [MicroCredits(2_500_000)])
        try store.refund(id, milliPercent: 25_000, date: second)
        // B sees only the last state, as a store serving each transaction once in its latest state shows it.
        #expect(cursorB == "0")
        let seenByB = try await b.flow.collect(updatesAfter: "2")
        #expect(seenByB.reversed.map(\.id) == ["reversal-mockstore-\(id)-\(second)-25000"])
        _ = try await flow(store).collect(updatesAfter: "2")
        #expect(
            steps(ledger, id) == [
                "reversal-mockstore-\(id)-\(first)-50000", "reinstated-mockstore-\(id)-\(first)-50000",
                "reversal-mockstore-\(id)-\(second)-25000",
            ])
        #expect(steps(b.ledger, id) == ["reversal-mockstore-\(id)-\(second)-25000"])
        // The same step, the same content, whoever wrote it.
        let mine = try #require(ledger.entry(id: "reversal-mockstore-\(id)-\(second)-25000"))
        #expect(b.ledger.entry(id: mine.id).map { $0.hasSameContent(as: mine) } == true)
        try b.ledger.append(
            EntryDraft(id: "b-charge", kind: .charge, feature: "debrief", amount: MicroCredits(-50_000)))

        // £5.00 opening + £5.00 bought − 25% of it (£1.25), less B's charge.
        let right = MicroCredits(5_000_000 + 5_000_000 - 1_250_000 - 50_000)
        let union = LedgerUnion.union(ledger.entries, b.ledger.entries)
        #expect(union.report.problems.isEmpty, "\(union.report.problems)")
        #expect(union.balance == right)
        #expect(LedgerUnion.union(b.ledger.entries, ledger.entries).balance == right)
        let intoA = try AccountSync(ledger).merge(files: [b.directory])
        #expect(intoA.problems.isEmpty, "\(intoA.problems)")
        let intoB = try AccountSync(b.ledger).merge(files: [directory])
        #expect(intoB.problems.isEmpty, "\(intoB.problems)")
        #expect(ledger.balance == right && b.ledger.balance == right)
        for device in [ledger, b.ledger] {
            let report = try device.verify(files: nil, receiptCheck: nil)
            #expect(report.problems.filter { $0.kind != .receiptInvalid }.isEmpty, "\(report.problems)")
        }
        // Either device collecting again, from the start of the feed: nothing more.
        for device in [flow(store), b.flow] {
            let again = try await device.collect(updatesAfter: nil)
            #expect(again.reversed.isEmpty && again.credited.isEmpty, "\(again)")
        }
        #expect(ledger.balance == right && b.ledger.balance == right)
    }

    @Test func thePlanIsAFunctionOfTheStoresHistoryAlone() throws {
        let topUp = LedgerEntry(
            id: "topup-mockstore-7", device: "a", sequence: 2, time: Timestamp(milliseconds: 0), kind: .topup,
            amount: MicroCredits(5_000_000), balanceAfter: .zero, reference: "7", product: "p")
        let half = StoreRefund(date: 1_000, milliPercent: 50_000)
        let quarter = StoreRefund(date: 2_000, milliPercent: 25_000)
        func written(_ plan: RefundPlan, device: String) -> [LedgerEntry] {
            plan.steps.enumerated().map { index, planned in
                LedgerEntry(
                    id: planned.step.id, device: device, sequence: Int64(10 + index), time: Timestamp(milliseconds: 0),
                    kind: planned.step.kind, amount: planned.amount, balanceAfter: .zero,
                    refersTo: planned.step.refersTo, reference: "7")
            }
        }
        // A: 50%, then reversed, then 25%.
        var heldByA = written(
            RefundPlan(store: "mockstore", topUp: topUp, refund: half, signedDate: nil, held: []), device: "a")
        heldByA += written(
            RefundPlan(store: "mockstore", topUp: topUp, refund: nil, signedDate: nil, held: heldByA), device: "a")
        let lastOnA = RefundPlan(store: "mockstore", topUp: topUp, refund: quarter, signedDate: nil, held: heldByA)
        heldByA += written(lastOnA, device: "a")
        // B: 25% only.
        let onB = RefundPlan(store: "mockstore", topUp: topUp, refund: quarter, signedDate: nil, held: [])
        #expect(onB.steps == lastOnA.steps, "the same step, the same amount, whatever was seen before")
        #expect(onB.steps.map(\.amount) == [MicroCredits(-1_250_000)])
        #expect(heldByA.map(\.amount.rawValue) == [-2_500_000, 2_500_000, -1_250_000])
        // Each held by both: the union takes back the 25% alone.
        let union = heldByA + written(onB, device: "b").filter { step in !heldByA.contains { $0.id == step.id } }
        #expect(union.reduce(0) { $0 + $1.amount.rawValue } == -1_250_000)
        // Whichever device plans next, with the other's steps merged: nothing to write.
        #expect(RefundPlan(store: "mockstore", topUp: topUp, refund: quarter, signedDate: nil, held: union).steps == [])
        // The 50% refund delivered again: over (a later refund is held, and it was given back), nothing written.
        let replayed = RefundPlan(store: "mockstore", topUp: topUp, refund: half, signedDate: nil, held: union)
        #expect(replayed.isStale && replayed.steps.isEmpty)
        // The store changing the share of the refund now: the 25% given back, the new share taken.
        let changed = RefundPlan(
            store: "mockstore", topUp: topUp, refund: StoreRefund(date: 2_000, milliPercent: 40_000), signedDate: nil,
            held: union)
        #expect(
            changed.steps.map(\.step.id) == ["reinstated-mockstore-7-2000-25000", "reversal-mockstore-7-2000-40000"])
        #expect(changed.steps.map(\.amount.rawValue) == [1_250_000, -2_000_000])
        // One device took back the 50% and stopped collecting; the other saw only the 25%. Merged, both are held;
        // the next plan with the store's state gives the 50% back, and only it.
        let stopped = Array(heldByA.prefix(1)) + written(onB, device: "b")
        let caughtUp = RefundPlan(store: "mockstore", topUp: topUp, refund: quarter, signedDate: nil, held: stopped)
        #expect(caughtUp.takenNow == MicroCredits(3_750_000))
        #expect(caughtUp.steps.map(\.step.id) == ["reinstated-mockstore-7-1000-50000"])
        #expect(caughtUp.steps.map(\.amount.rawValue) == [2_500_000])
    }

    @Test func aStateReplayedFromBeforeWhatIsHeldChangesNothing() async throws {
        let store = FakeStore(signer: .hs256(secret: secret))
        guard case .credited(let topUp) = try await flow(store).topUp() else {
            Issue.record("no credit")
            return
        }
        let id = topUp.reference!
        let refunded = try store.refund(id, milliPercent: 50_000, date: 1_764_500_000_000)
        _ = try await flow(store).collect(updatesAfter: nil)
        let reinstated = try store.reverseRefund(id)
        _ = try await flow(store).collect(updatesAfter: "1")
        try store.refund(id, milliPercent: 25_000, date: 1_764_600_000_000)
        _ = try await flow(store).collect(updatesAfter: "2")
        let held = steps(ledger, id)
        let balance = ledger.balance
        #expect(balance == MicroCredits(10_000_000 - 1_250_000))
        // Older states delivered again, each by itself: the 50% refund (already given back), the reversal of it
        // (signed before the 25% refund the ledger holds).
        for (cursor, old) in [refunded, reinstated].enumerated() {
            store.replay(old)
            let again = try await flow(store).collect(updatesAfter: String(3 + cursor))
            #expect(again.reversed.isEmpty && again.credited.isEmpty, "\(again)")
        }
        // And the whole feed again, from its start.
        let whole = try await flow(store).collect(updatesAfter: nil)
        #expect(whole.reversed.isEmpty && whole.credited.isEmpty, "\(whole)")
        #expect(steps(ledger, id) == held)
        #expect(ledger.balance == balance)
        let report = try ledger.verify(files: nil, receiptCheck: nil)
        // (No store secret is given to verify, so receipts are not checked here: every other problem is.)
        #expect(report.problems.filter { $0.kind != .receiptInvalid }.isEmpty, "\(report.problems)")
    }

    @Test func anOlderLedgersNumberedStepsAreReadAndNeverWrittenTwice() async throws {
        let store = FakeStore(signer: .hs256(secret: secret))
        guard case .credited(let topUp) = try await flow(store).topUp() else {
            Issue.record("no credit")
            return
        }
        let id = topUp.reference!
        let refunded = try store.refund(id, milliPercent: 50_000, date: 1_764_500_000_000)
        // What an older version wrote for that refund: step 1, numbered, with the refund's signed transaction.
        let first = RefundStep(store: "mockstore", reference: id, number: 1)
        try ledger.append(
            EntryDraft(
                id: first.id, kind: .reversal, quantity: 1, amount: MicroCredits(-2_500_000), refersTo: first.refersTo,
                text: "Top-up refunded in part by the store (50%)", reference: id,
                product: "ai.voicedebrief.app.credit.500", receipt: refunded.jwsRepresentation))
        let same = try await flow(store).collect(updatesAfter: nil)
        #expect(same.reversed.isEmpty, "the refund step 1 took back is not taken again: \(same)")
        try store.reverseRefund(id)
        let back = try await flow(store).collect(updatesAfter: "1")
        // Given back by the numbered step after it, as the older version would have written it.
        #expect(back.credited.map(\.id) == ["reinstated-mockstore-\(id)"])
        try store.refund(id, date: 1_764_600_000_000)
        let again = try await flow(store).collect(updatesAfter: "2")
        #expect(again.reversed.map(\.id) == ["reversal-mockstore-\(id)-1764600000000"])
        #expect(ledger.balance == MicroCredits(5_000_000))
        let report = try ledger.verify(files: nil, receiptCheck: nil)
        // (No store secret is given to verify, so receipts are not checked here: every other problem is.)
        #expect(report.problems.filter { $0.kind != .receiptInvalid }.isEmpty, "\(report.problems)")
    }
}
