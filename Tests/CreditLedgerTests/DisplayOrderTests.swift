import CreditLedger
import Foundation
import Testing

/// Issue 12: one opening that counts, shown first, and every running balance one that really was, also when every
/// entry has the same time (a fixed clock) and the devices' ids sort any way.
@Suite struct DisplayOrderTests {
    /// The running balances of `history`, oldest first.
    func running(_ history: [LedgerEntry]) throws -> [MicroCredits] {
        var balance = MicroCredits.zero
        return try history.map { entry in
            balance = try balance.adding(entry.amount)
            return balance
        }
    }

    /// A first device with `before` charges, a second joined to it that charges twice, then the first's `after`
    /// charges, all at one instant; merged both ways. Device ids `first`/`second` choose which sorts first.
    func account(first: String, second: String, before: Int, after: Int) throws -> (Ledger, Ledger) {
        let a = try LedgerFixture(prefix: first, step: 0)
        let ledgerA = try a.openSigned()
        for index in 0..<before { try ledgerA.append(chargeDraft("\(first)-c\(index)", pence: Int64(index + 1))) }
        let b = try LedgerFixture(prefix: second, step: 0)
        _ = try AccountSync.join(directory: b.directory, account: a.directory, ids: b.ids)
        let ledgerB = try Ledger.openSigned(directory: b.directory, clock: b.clock, ids: b.ids)
        try ledgerB.append(chargeDraft("\(second)-c1", pence: 10))
        try ledgerB.append(chargeDraft("\(second)-c2", pence: 20))
        for index in 0..<after { try ledgerA.append(chargeDraft("\(first)-d\(index)", pence: 3)) }
        _ = try AccountSync(ledgerA).merge(files: [b.directory])
        _ = try AccountSync(ledgerB).merge(files: [a.directory])
        return (ledgerA, ledgerB)
    }

    @Test(arguments: [("a", "z"), ("z", "a")])
    func theOpeningIsFirstWhateverTheDeviceIdsAtOneInstant(_ ids: (String, String)) throws {
        let (ledgerA, ledgerB) = try account(first: ids.0, second: ids.1, before: 2, after: 0)
        for ledger in [ledgerA, ledgerB] {
            let history = ledger.distinctEntries
            #expect(history.first?.kind == .opening, "\(history.map(\.id))")
            #expect(history.filter { $0.kind == .opening }.count == 1)
            // Nothing ran at once here (the second device charged after it joined, the first did nothing after):
            // every running balance is the one the entry was written with.
            #expect(try running(history) == history.map(\.balanceAfter), "\(history.map(\.id))")
            #expect(try running(history).last == ledger.balance)
        }
    }

    @Test(arguments: [("a", "z"), ("z", "a")])
    func entriesMadeAtOnceOnTwoDevicesStillStartAtTheOpening(_ ids: (String, String)) throws {
        let (ledgerA, ledgerB) = try account(first: ids.0, second: ids.1, before: 1, after: 2)
        #expect(ledgerA.distinctEntries.map(\.id) == ledgerB.distinctEntries.map(\.id), "the same history on both")
        let history = ledgerA.distinctEntries
        #expect(history.first?.kind == .opening)
        let balances = try running(history)
        #expect(balances.last == ledgerA.balance)
        // What came before the join is drawn before what the joined device did after it.
        let joinedFirst = try #require(history.firstIndex { $0.id == "\(ids.1)-c1" })
        let beforeJoin = try #require(history.firstIndex { $0.id == "\(ids.0)-c0" })
        #expect(beforeJoin < joinedFirst)
        // And each device's entries keep their order.
        for device in Set(history.map(\.device)) {
            let sequences = history.filter { $0.device == device }.map(\.sequence)
            #expect(sequences == sequences.sorted())
        }
        let union = LedgerUnion.union(ledgerB.entries, ledgerA.entries)
        #expect(union.distinctEntries.first?.kind == .opening)
    }

    @Test func theOpeningIsFirstEvenWhenAnotherDevicesClockIsEarlier() throws {
        let a = try LedgerFixture(prefix: "a", step: 0)
        let ledgerA = try a.openSigned()
        let b = try LedgerFixture(prefix: "b", step: 0)
        _ = try AccountSync.join(directory: b.directory, account: a.directory, ids: b.ids)
        let early = FixedClock(Timestamp(milliseconds: testStart.milliseconds - 86_400_000))
        let ledgerB = try Ledger.openSigned(directory: b.directory, clock: early, ids: b.ids)
        try ledgerB.append(chargeDraft("b-c1", pence: 10))
        _ = try AccountSync(ledgerA).merge(files: [b.directory])
        let history = ledgerA.distinctEntries
        #expect(history.map(\.id) == ["opening", "b-c1"])
        #expect(try running(history) == history.map(\.balanceAfter))
    }
}
