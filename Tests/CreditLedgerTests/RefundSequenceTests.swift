import CreditLedger
import Testing

/// `verify`'s check of each store transaction's top-up and refund steps: only a sequence that can have happened.
@Suite struct RefundSequenceTests {
    static let reference = "2000000000000042"

    private func topUp(_ amount: Int64 = 5_000_000) -> EntryDraft {
        EntryDraft(
            id: EntryDraft.topUpID(store: "mockstore", reference: Self.reference), kind: .topup,
            amount: MicroCredits(amount), text: "Top-up", reference: Self.reference, product: "p")
    }

    private func step(_ number: Int, _ amount: Int64, kind: EntryKind? = nil) -> EntryDraft {
        let step = RefundStep(store: "mockstore", reference: Self.reference, number: number)
        return EntryDraft(
            id: step.id, kind: kind ?? step.kind, amount: MicroCredits(amount), refersTo: step.refersTo,
            reference: Self.reference, product: "p")
    }

    private func problems(_ drafts: [EntryDraft]) throws -> [String] {
        let fixture = try LedgerFixture()
        let ledger = try fixture.openSigned()
        try ledger.appendBatch(drafts)
        return try ledger.verify(files: nil, receiptCheck: nil).problems.filter { $0.kind == .refundSequence }
            .map(\.detail)
    }

    @Test func creditReverseReCreditReverseHolds() throws {
        #expect(
            try problems([topUp(), step(1, -5_000_000), step(2, 5_000_000), step(3, -2_500_000), step(4, 2_500_000)])
                .isEmpty)
    }

    @Test func twoReversalsInARowAreReported() throws {
        let found = try problems([topUp(), step(1, -5_000_000), step(3, -5_000_000)])
        #expect(found.count == 1)
        #expect(found.first?.contains("two reversals in a row") == true, "\(found)")
    }

    @Test func moreTakenBackThanBoughtIsReported() throws {
        let found = try problems([topUp(), step(1, -6_000_000)])
        #expect(found.first?.contains("more than was bought") == true, "\(found)")
    }

    @Test func aReCreditOfOtherThanWasTakenIsReported() throws {
        let found = try problems([topUp(), step(1, -2_500_000), step(2, 5_000_000)])
        #expect(found.count == 1, "\(found)")
    }

    @Test func aReversalWithNoTopUpIsReported() throws {
        let found = try problems([step(1, -5_000_000)])
        #expect(found.first?.contains("no top-up") == true, "\(found)")
    }

    @Test func aReCreditWithoutTheReversalBeforeItIsReported() throws {
        let found = try problems([topUp(), step(2, 5_000_000)])
        #expect(found.first?.contains("two re-credits in a row") == true, "\(found)")
    }
}
