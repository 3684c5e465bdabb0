import CreditLedger
import Foundation
import Payments
import Signing
import Testing
import TopUp

extension TopUpFlowTests {
    @Test func anApprovedAskToBuyIsCreditedOnceAndFinished() async throws {
        let store = FakeStore(signer: .hs256(secret: secret))
        store.setNextResult(.pending(reason: .askToBuy))
        #expect(try await flow(store).topUp() == .pending(reason: .askToBuy))
        #expect(ledger.balance == MicroCredits(5_000_000))
        let id = try store.approvePending()
        let first = try await flow(store).collect(updatesAfter: nil)
        #expect(first.credited.map(\.reference) == [id])
        #expect(store.finishes == [id])
        // Delivered again through both paths: never credited twice.
        let again = try await flow(store).collect(updatesAfter: nil)
        #expect(again.credited.isEmpty)
        #expect(ledger.balance == MicroCredits(10_000_000))
    }

    @Test func aRefundTakesTheCreditBackOnceWhateverTheDeliveries() async throws {
        let store = FakeStore(signer: .hs256(secret: secret))
        guard case .credited(let entry) = try await flow(store).topUp() else {
            Issue.record("no credit")
            return
        }
        try store.refund(entry.reference!)
        try store.refund(entry.reference!)
        let report = try await flow(store).collect(updatesAfter: nil)
        #expect(report.reversed.count == 1)
        #expect(report.reversed.first?.amount == MicroCredits(-5_000_000))
        #expect(report.reversed.first?.refersTo == entry.id)
        let again = try await flow(store).collect(updatesAfter: nil)
        #expect(again.reversed.isEmpty)
        #expect(ledger.balance == MicroCredits(5_000_000))
        #expect(ledger.entries.filter { $0.kind == .reversal }.count == 1)
    }

    @Test func aReversedRefundGivesTheCreditBackOnce() async throws {
        let store = FakeStore(signer: .hs256(secret: secret))
        guard case .credited(let entry) = try await flow(store).topUp() else {
            Issue.record("no credit")
            return
        }
        try store.refund(entry.reference!)
        _ = try await flow(store).collect(updatesAfter: nil)
        #expect(ledger.balance == MicroCredits(5_000_000))
        try store.reverseRefund(entry.reference!)
        try store.reverseRefund(entry.reference!)
        let report = try await flow(store).collect(updatesAfter: nil)
        #expect(report.credited.map(\.id) == ["reinstated-mockstore-\(entry.reference!)-1764500000000"])
        #expect(ledger.balance == MicroCredits(10_000_000))
        let again = try await flow(store).collect(updatesAfter: nil)
        #expect(again.credited.isEmpty)
        #expect(ledger.balance == MicroCredits(10_000_000))
    }

    @Test func aRefundOfSomethingNeverCreditedTakesNothingAndCreditsNothing() async throws {
        let store = FakeStore(signer: .hs256(secret: secret))
        let made = try store.makeTransaction()
        try store.refund(made.id)
        let report = try await flow(store).collect(updatesAfter: nil)
        #expect(report.reversed.isEmpty)
        #expect(report.credited.isEmpty)
        #expect(ledger.balance == MicroCredits(5_000_000))
        #expect(store.unfinishedCount == 0)
    }

    @Test func theUpdatesCursorResumes() async throws {
        let store = FakeStore(signer: .hs256(secret: secret))
        _ = try store.approvePending()
        let first = try await flow(store).collect(updatesAfter: nil)
        #expect(first.cursor == "1")
        let second = try await flow(store).collect(updatesAfter: first.cursor)
        #expect(second.credited.isEmpty && second.alreadyCredited.isEmpty)
    }

    @Test func anAskToBuyRequestWithoutAnAnswerForADayIsSaidToHaveLapsed() throws {
        let asked = Timestamp(milliseconds: 1_764_400_000_000)
        let day = PendingPurchases.askToBuyLapse
        var pending = PendingPurchases()
        pending.add(product: "ai.voicedebrief.app.credit.500", at: asked, reason: .askToBuy)
        pending.add(product: "p", at: asked, reason: .interrupted)
        let withinTheDay = pending.descriptions(at: Timestamp(milliseconds: asked.milliseconds + day))
        #expect(withinTheDay[0].contains("waiting for a parent or guardian"), "\(withinTheDay)")
        let after = pending.descriptions(at: Timestamp(milliseconds: asked.milliseconds + day + 1))
        #expect(after[0].contains("had no answer within a day"), "\(after)")
        #expect(after[0].contains("top up again to ask again"))
        #expect(!after[0].contains("waiting"))
        // An interrupted purchase waits for the App Store, however long it takes.
        #expect(after[1].contains("an interrupted purchase"), "\(after)")
        // Asking again is another request, its own line (issue 13): the lapsed one still says it lapsed.
        let again = Timestamp(milliseconds: asked.milliseconds + 2 * day)
        pending.add(product: "ai.voicedebrief.app.credit.500", at: again, reason: .askToBuy)
        #expect(pending.purchases.filter { $0.reason == .askToBuy }.count == 2)
        #expect(pending.descriptions(at: again).filter { $0.contains("waiting for a parent or guardian") }.count == 1)
        #expect(pending.descriptions(at: again).filter { $0.contains("had no answer within a day") }.count == 1)
        #expect(pending.purchases.count == 3)
    }

    @Test func pendingPurchasesAreDescribedAndSettled() throws {
        var pending = PendingPurchases()
        let asked = Timestamp(milliseconds: 1_764_400_000_000)
        pending.add(product: "ai.voicedebrief.app.credit.500", at: asked, reason: .askToBuy)
        #expect(
            pending.descriptions(at: asked).first?.contains("a parent or guardian to approve it (Ask to Buy)") == true)
        var interrupted = PendingPurchases()
        interrupted.add(product: "p", at: Timestamp(milliseconds: 0), reason: .interrupted)
        #expect(interrupted.descriptions(at: asked).first?.contains("an interrupted purchase") == true)
        #expect(interrupted.descriptions(at: asked).first?.contains("Ask to Buy") == false)
        let credited = LedgerEntry(
            id: "t", device: "d", sequence: 2, time: Timestamp(milliseconds: 0), kind: .topup,
            amount: MicroCredits(5_000_000), balanceAfter: .zero, product: "ai.voicedebrief.app.credit.500")
        pending.settle(credited: [credited])
        #expect(pending.purchases.isEmpty)
    }
}
