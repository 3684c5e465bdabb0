import CreditLedger
import Foundation
import Payments
import Testing
import TopUp

/// Refund cycles and partial refunds through the flow: each change of a transaction's refund state is one step,
/// named by the store's refund event, written once whatever is replayed.
extension TopUpFlowTests {
    private func credited(_ store: FakeStore) async throws -> LedgerEntry {
        guard case .credited(let entry) = try await flow(store).topUp() else {
            throw RefusedTransaction(transactionID: nil, reason: "no credit")
        }
        return entry
    }

    @Test func threeRefundCyclesAreSixStepsEachOnce() async throws {
        let store = FakeStore(signer: .hs256(secret: secret))
        let entry = try await credited(store)
        let id = entry.reference!
        var expected: [Int64] = []
        for cycle in 0..<3 {
            try store.refund(id, date: 1_764_500_000_000 + Int64(cycle) * 1000)
            _ = try await flow(store).collect(updatesAfter: nil)
            expected.append(5_000_000)
            #expect(ledger.balance == MicroCredits(5_000_000), "refunded in cycle \(cycle)")
            try store.reverseRefund(id)
            _ = try await flow(store).collect(updatesAfter: nil)
            expected.append(10_000_000)
            #expect(ledger.balance == MicroCredits(10_000_000), "reversed in cycle \(cycle)")
        }
        // The whole feed replayed from its start: nothing more.
        let again = try await flow(store).collect(updatesAfter: nil)
        #expect(again.reversed.isEmpty && again.credited.isEmpty)
        let dates = (0..<3).map { 1_764_500_000_000 + Int64($0) * 1000 }
        let steps = ledger.entries.compactMap(RefundStep.init(entry:))
        #expect(
            steps.map(\.id)
                == dates.flatMap { ["reversal-mockstore-\(id)-\($0)", "reinstated-mockstore-\(id)-\($0)"] })
        #expect(steps.map(\.event?.date) == dates.flatMap { [$0, $0] })
        #expect(ledger.entry(id: "reversal-mockstore-\(id)-\(dates[2])")?.amount.rawValue == -5_000_000)
        #expect(
            ledger.entry(id: "reinstated-mockstore-\(id)-\(dates[2])")?.refersTo
                == "reversal-mockstore-\(id)-\(dates[2])")
        let report = try ledger.verify(files: nil, receiptCheck: nil)
        #expect(!report.problems.contains { $0.kind == .refundSequence }, "\(report.problems)")
    }

    @Test func aProratedRefundTakesBackItsShareRoundedTowardTheUser() async throws {
        let store = FakeStore(signer: .hs256(secret: secret))
        let entry = try await credited(store)
        try store.refund(entry.reference!, milliPercent: 33_333)
        let report = try await flow(store).collect(updatesAfter: nil)
        // 33.333% of £5.00 is £1.66665: £1.666650 exactly in micro-credits.
        #expect(report.reversed.map(\.amount) == [MicroCredits(-1_666_650)])
        #expect(ledger.balance == MicroCredits(10_000_000 - 1_666_650))
        try store.reverseRefund(entry.reference!)
        let back = try await flow(store).collect(updatesAfter: nil)
        #expect(back.credited.map(\.amount) == [MicroCredits(1_666_650)])
        #expect(ledger.balance == MicroCredits(10_000_000))
    }

    @Test func aRefundWhoseShareChangedIsReCreditedAndTakenAgain() async throws {
        let store = FakeStore(signer: .hs256(secret: secret))
        let entry = try await credited(store)
        try store.refund(entry.reference!, milliPercent: 50_000)
        _ = try await flow(store).collect(updatesAfter: nil)
        #expect(ledger.balance == MicroCredits(7_500_000))
        try store.refund(entry.reference!, date: 1_764_600_000_000)
        _ = try await flow(store).collect(updatesAfter: "1")
        #expect(ledger.balance == MicroCredits(5_000_000))
        let id = entry.reference!
        #expect(
            ledger.entries.compactMap(RefundStep.init(entry:)).map(\.id) == [
                "reversal-mockstore-\(id)-1764500000000-50000", "reinstated-mockstore-\(id)-1764500000000-50000",
                "reversal-mockstore-\(id)-1764600000000",
            ])
    }

    @Test func shareRoundsDownAndNeverExceedsWhatWasBought() {
        #expect(RefundStep.share(of: MicroCredits(5_000_000), milliPercent: 50_000) == MicroCredits(2_500_000))
        #expect(RefundStep.share(of: MicroCredits(1), milliPercent: 99_999) == .zero)
        #expect(RefundStep.share(of: MicroCredits(3), milliPercent: 33_334) == MicroCredits(1))
        #expect(RefundStep.share(of: MicroCredits(5_000_000), milliPercent: 250_000) == MicroCredits(5_000_000))
        #expect(RefundStep.share(of: MicroCredits(Int64.max), milliPercent: 100_000) == MicroCredits(Int64.max))
        #expect(RefundStep.share(of: MicroCredits(5_000_000), milliPercent: -5) == .zero)
    }

    @Test func stepIDsNameTheStoresRefundEventAndAreReadBack() {
        let reference = "2000000000000007"
        let full = RefundStep(
            store: "mockstore", reference: reference, reversalOf: RefundEvent(date: 1_764_500_000_000))
        let part = RefundStep(
            store: "mockstore", reference: reference,
            reversalOf: RefundEvent(date: 1_764_500_000_123, milliPercent: 33_333))
        #expect(full.id == "reversal-mockstore-2000000000000007-1764500000000")
        #expect(full.reinstatement?.id == "reinstated-mockstore-2000000000000007-1764500000000")
        #expect(full.reinstatement?.refersTo == full.id)
        #expect(full.refersTo == "topup-mockstore-2000000000000007")
        #expect(part.id == "reversal-mockstore-2000000000000007-1764500000123-33333")
        #expect(part.reinstatement?.id == "reinstated-mockstore-2000000000000007-1764500000123-33333")
        for step in [full, part, full.reinstatement!, part.reinstatement!] {
            let entry = LedgerEntry(
                id: step.id, device: "d", sequence: 1, time: Timestamp(milliseconds: 0), kind: step.kind,
                amount: .zero, balanceAfter: .zero, reference: reference)
            #expect(RefundStep(entry: entry) == step, "\(step.id)")
        }
        // One spelling per event: a full share, a leading zero or anything after the share is not a step.
        for id in [
            "reversal-mockstore-2000000000000007-1764500000000-100000",
            "reversal-mockstore-2000000000000007-01764500000000", "reversal-mockstore-2000000000000007-17645-1-2",
            "reversal-mockstore-2000000000000007-", "reversal--2000000000000007-1764500000000",
        ] {
            let entry = LedgerEntry(
                id: id, device: "d", sequence: 1, time: Timestamp(milliseconds: 0), kind: .reversal, amount: .zero,
                balanceAfter: .zero, reference: reference)
            #expect(RefundStep(entry: entry) == nil, "\(id)")
        }
    }

    @Test func numberedStepIDsOfOlderLedgersAreStillRead() {
        let ids = (1...5).map { RefundStep(store: "mockstore", reference: "2000000000000007", number: $0).id }
        #expect(
            ids == [
                "reversal-mockstore-2000000000000007", "reinstated-mockstore-2000000000000007",
                "reversal-mockstore-2000000000000007-step-3", "reinstated-mockstore-2000000000000007-step-4",
                "reversal-mockstore-2000000000000007-step-5",
            ])
        for (index, id) in ids.enumerated() {
            let entry = LedgerEntry(
                id: id, device: "d", sequence: 1, time: Timestamp(milliseconds: 0),
                kind: index % 2 == 0 ? .reversal : .topup,
                amount: .zero, balanceAfter: .zero, reference: "2000000000000007")
            #expect(RefundStep(entry: entry)?.number == index + 1)
            #expect(RefundStep(entry: entry)?.store == "mockstore")
        }
        // A numbered reversal is given back by the numbered step after it, as older versions wrote it.
        let third = RefundStep(store: "mockstore", reference: "2000000000000007", number: 3)
        #expect(third.reinstatement?.id == ids[3])
        #expect(third.reinstatement?.refersTo == ids[2])
        let odd = LedgerEntry(
            id: "reinstated-mockstore-2000000000000007-step-3", device: "d", sequence: 1,
            time: Timestamp(milliseconds: 0), kind: .topup, amount: .zero, balanceAfter: .zero,
            reference: "2000000000000007")
        #expect(RefundStep(entry: odd) == nil, "a re-credit is an even step")
    }
}
