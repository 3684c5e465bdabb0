import CreditLedger
import Testing

@testable import LedgerEntries

/// The ledger's state as a value, without a disk: distinct ids counted once, conflicts reported where they were
/// read, the balance, the tallies behind takings and totals, and a read that fails leaving nothing behind.
@Suite struct LedgerStateTests {
    private static func entry(
        _ id: String, device: String = "dev-a", sequence: Int64, kind: EntryKind = .charge,
        feature: String? = "send", pence: Int64 = -1, day: Int64 = 0
    ) -> LedgerEntry {
        LedgerEntry(
            id: id, device: device, sequence: sequence, time: testStart.adding(days: day), kind: kind,
            feature: kind == .charge || kind == .refund ? feature : nil, amount: MicroCredits(pence * 10_000),
            balanceAfter: .zero)
    }

    /// `entries` read from `file` from its start, as a load does.
    private static func load(_ entries: [LedgerEntry], into state: inout LedgerState, file: String = "a.jsonl") throws
        -> [LedgerNotice]
    {
        let first = state.entries.count
        try state.appendEntries { $0.append(contentsOf: entries) }
        return state.count(from: first, file: file, firstLine: 1)
    }

    private static let opening = entry("opening", sequence: 1, kind: .opening, pence: 500)

    @Test func anIdCountsOnceWhateverTheOrder() throws {
        var state = LedgerState()
        let a = [Self.opening, Self.entry("c1", sequence: 2, pence: -5), Self.entry("c2", sequence: 3, pence: -1)]
        // Another device's copy of the opening and of c1: the same content, so copies, not conflicts.
        var copies = [Self.opening, Self.entry("c1", device: "dev-b", sequence: 2, pence: -5)]
        copies[0].device = "dev-b"
        #expect(try Self.load(a, into: &state).isEmpty)
        #expect(try Self.load(copies, into: &state, file: "b.jsonl").isEmpty)
        #expect(state.entries.count == 5)
        #expect(state.countedPositions == [0, 1, 2])
        #expect(state.balance == MicroCredits(4_940_000))
        #expect(state.entry(id: "c1")?.device == "dev-a", "the first read counts")
        #expect(state.entry(device: "dev-b", sequence: 2)?.id == "c1")
        #expect(state.entry(id: "absent") == nil)

        // Read in the other order, the balance is the same.
        var reversed = LedgerState()
        _ = try Self.load(copies, into: &reversed, file: "b.jsonl")
        _ = try Self.load(a, into: &reversed)
        #expect(reversed.balance == state.balance)
        #expect(reversed.entry(id: "c1")?.device == "dev-b")
    }

    @Test func aConflictingDuplicateIsReportedWhereItWasReadAndNotCounted() throws {
        var state = LedgerState()
        _ = try Self.load([Self.opening, Self.entry("c1", sequence: 2, pence: -5)], into: &state)
        let other = Self.entry("c1", device: "dev-b", sequence: 1, pence: -7)
        let notices = try Self.load(
            [Self.entry("c9", device: "dev-b", sequence: 1), other], into: &state, file: "b.jsonl")
        #expect(notices == [.conflictingDuplicate(id: "c1", file: "b.jsonl", line: 2)])
        #expect(state.balance == MicroCredits(4_940_000))
        #expect(state.entry(id: "c1")?.amount == MicroCredits(-50_000))
        // One appended (no line number known): line 0.
        #expect(
            state.add(Self.entry("c1", sequence: 3, pence: -9), file: "a.jsonl")
                == [.conflictingDuplicate(id: "c1", file: "a.jsonl", line: 0)])
        #expect(state.add(Self.entry("c3", sequence: 4, pence: -1), file: "a.jsonl").isEmpty)
        #expect(state.balance == MicroCredits(4_930_000))
    }

    @Test func aReadThatFailsLeavesNothingBehind() throws {
        struct Corrupt: Error {}
        var state = LedgerState()
        _ = try Self.load([Self.opening], into: &state)
        #expect(throws: Corrupt.self) {
            try state.appendEntries { entries in
                entries.append(Self.entry("c1", sequence: 2))
                throw Corrupt()
            }
        }
        #expect(state.entries.map(\.id) == ["opening"])
        #expect(state.countedPositions == [0])
        state.removeAll()
        #expect(state.entries.isEmpty && state.balance == .zero && state.tallies.isEmpty)
        #expect(state.entry(id: "opening") == nil)
    }

    @Test func anEntryThatWouldOverflowTheBalanceIsToldAndNotCounted() throws {
        var state = LedgerState()
        var huge = Self.entry("big", sequence: 1, kind: .topup, pence: 0)
        huge.amount = MicroCredits(Int64.max)
        let notices = try Self.load([huge, Self.entry("more", sequence: 2, kind: .topup, pence: 1)], into: &state)
        #expect(state.balance == MicroCredits(Int64.max))
        #expect(state.tallies.count == 1, "the entry that would overflow is in no sum")
        #expect(notices == [.amountOutOfRange(id: "more", file: "a.jsonl", line: 2)])
    }

    @Test func takingsAndTotalsComeFromTheTallies() throws {
        var state = LedgerState()
        var refund = Self.entry("r1", sequence: 5, kind: .refund, feature: "debrief", pence: 5, day: 2)
        refund.refersTo = "c2"
        _ = try Self.load(
            [
                Self.opening, Self.entry("c1", sequence: 2, feature: "send", pence: -1, day: 0),
                Self.entry("c2", sequence: 3, feature: "debrief", pence: -5, day: 1),
                Self.entry("t1", sequence: 4, kind: .topup, pence: 500, day: 1), refund,
                Self.entry("c3", sequence: 6, feature: "debrief", pence: -5, day: 3),
            ], into: &state)
        #expect(state.featureNames == ["send", "debrief"])
        #expect(
            try state.takings(fromMilliseconds: .min) == [
                FeatureTakings(
                    feature: "debrief", charges: 2, charged: MicroCredits(100_000), declined: 1,
                    givenBack: MicroCredits(50_000), net: MicroCredits(50_000)),
                FeatureTakings(feature: "send", charges: 1, charged: MicroCredits(10_000), net: MicroCredits(10_000)),
            ])
        #expect(
            try state.takings(fromMilliseconds: testStart.adding(days: 2).milliseconds) == [
                FeatureTakings(
                    feature: "debrief", charges: 1, charged: MicroCredits(50_000), declined: 1,
                    givenBack: MicroCredits(50_000), net: .zero)
            ])
        let totals = try state.totals()
        #expect(totals.opening == MicroCredits(5_000_000))
        #expect(totals.toppedUp == MicroCredits(5_000_000))
        #expect(totals.used == MicroCredits(60_000))
        #expect(state.balance == MicroCredits(9_940_000))
    }
}
