import CreditLedger
import Signing
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

    /// The reversal of the store's refund `event` (named by it), or its reinstatement.
    private func eventStep(
        _ event: RefundEvent, _ amount: Int64, reinstating: Bool = false, receipt: String? = nil
    ) -> EntryDraft {
        let reversal = RefundStep(store: "mockstore", reference: Self.reference, reversalOf: event)
        let step = reinstating ? reversal.reinstatement! : reversal
        return EntryDraft(
            id: step.id, kind: step.kind, amount: MicroCredits(amount), refersTo: step.refersTo,
            reference: Self.reference, product: "p", receipt: receipt)
    }

    /// A signed transaction showing `event` (what a step keeps as its receipt).
    private func receipt(_ event: RefundEvent) throws -> String {
        let payload =
            "{\"transactionId\":\"\(Self.reference)\",\"signedDate\":\(event.date + 5),"
            + "\"revocationDate\":\(event.date),\"revocationType\":\"REFUND_PRORATED\","
            + "\"revocationPercentage\":\(event.milliPercent)}"
        return try CompactJWS.sign(payload: Array(payload.utf8), with: .hs256(secret: Array("s".utf8)))
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

    // MARK: steps named by the store's refund event

    static let half = RefundEvent(date: 1_764_500_000_000, milliPercent: 50_000)
    static let quarter = RefundEvent(date: 1_764_600_000_000, milliPercent: 25_000)

    @Test func refundEventsTakenBackAndGivenBackHold() throws {
        let steps = [
            topUp(), eventStep(Self.half, -2_500_000), eventStep(Self.half, 2_500_000, reinstating: true),
            eventStep(Self.quarter, -1_250_000),
        ]
        #expect(try problems(steps).isEmpty)
    }

    @Test func aReinstatementWithoutItsReversalIsReported() throws {
        let found = try problems([topUp(), eventStep(Self.half, 2_500_000, reinstating: true)])
        #expect(found.count == 1 && found[0].contains("a reinstatement without its reversal"), "\(found)")
    }

    @Test func aReversalOtherThanItsRefundsShareIsReported() throws {
        let found = try problems([topUp(), eventStep(Self.half, -3_000_000)])
        #expect(found.count == 1 && found[0].contains("the refund its id names takes £2.50"), "\(found)")
    }

    @Test func twoReversalsOfOneRefundAreReportedWhateverTheirIDs() throws {
        // A numbered step of an older ledger whose receipt shows the refund, and the same refund named by its event.
        let numbered = RefundStep(store: "mockstore", reference: Self.reference, number: 1)
        let older = EntryDraft(
            id: numbered.id, kind: .reversal, amount: MicroCredits(-2_500_000), refersTo: numbered.refersTo,
            reference: Self.reference, product: "p", receipt: try receipt(Self.half))
        let found = try problems([topUp(), older, eventStep(Self.half, -2_500_000)])
        #expect(found.count == 1 && found[0].contains("two reversals of one refund"), "\(found)")
        // Given back by its numbered re-credit, the older step is over; a later refund by event is fine.
        let back = step(2, 2_500_000)
        #expect(try problems([topUp(), older, back, eventStep(Self.quarter, -1_250_000)]).isEmpty)
    }

    @Test func moreTakenBackAtOnceThanBoughtIsReported() throws {
        let found = try problems([
            topUp(), eventStep(Self.half, -2_500_000),
            eventStep(RefundEvent(date: 1_764_600_000_000, milliPercent: 75_000), -3_750_000),
        ])
        #expect(found.count == 1 && found[0].contains("at once"), "\(found)")
    }
}
