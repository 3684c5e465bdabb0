import CreditLedger
import Foundation
import Testing

/// Merge: the union of several devices' files by id, each device's lines copied byte for byte; forks, conflicts and
/// gaps reported and nothing from that point merged.
@Suite struct LedgerMergeTests {
    /// Device A: opening, a-c1 5p, a-c2 1p. Device B: opening, b-c1 3p, its refund, b-c2 2p.
    private func twoDevices() throws -> (a: LedgerFixture, ledgerA: Ledger, b: LedgerFixture, ledgerB: Ledger) {
        let a = try LedgerFixture(prefix: "a")
        let b = try LedgerFixture(prefix: "b")
        let ledgerA = try a.open()
        let ledgerB = try b.open()
        try ledgerA.append(chargeDraft("a-c1", pence: 5))
        try ledgerA.append(chargeDraft("a-c2", pence: 1))
        try ledgerB.append(chargeDraft("b-c1", pence: 3))
        try ledgerB.decline("b-c1", reason: .test)
        try ledgerB.append(chargeDraft("b-c2", pence: 2))
        return (a, ledgerA, b, ledgerB)
    }

    @Test func mergeIsTheUnionByIdAndCountsTheOpeningOnce() throws {
        let (a, ledgerA, b, ledgerB) = try twoDevices()
        #expect(ledgerA.device == "a-0001" && ledgerB.device == "b-0001")
        let report = try AccountSync(ledgerA).merge(files: [b.file(of: ledgerB)])
        #expect(report.problems == [])
        #expect(report.added == ["b-0001": 4])
        #expect(report.alreadyPresent == 0)
        // £5.00 once, less 5p and 1p on A, less 2p on B (the 3p was declined).
        #expect(ledgerA.balance == MicroCredits(5_000_000 - 60_000 - 20_000))
        #expect(Set(ledgerA.distinctEntries.map(\.id)) == ["opening", "a-c1", "a-c2", "b-c1", "refund-b-c1", "b-c2"])
        // B's lines are in A's data directory exactly as B wrote them.
        #expect(try readBytes(a.directory + "/ledger/b-0001.jsonl") == (try readBytes(b.file(of: ledgerB))))
        // And a fresh look at A's directory agrees.
        let reread = try a.open()
        #expect(reread.balance == ledgerA.balance)
        #expect(reread.device == "a-0001")
        #expect(reread.notices.isEmpty)
    }

    @Test func mergingTwiceAddsNothing() throws {
        let (a, ledgerA, b, ledgerB) = try twoDevices()
        _ = try AccountSync(ledgerA).merge(files: [b.file(of: ledgerB)])
        let balance = ledgerA.balance
        let bytesA = try readBytes(a.file(of: ledgerA))
        let bytesB = try readBytes(a.directory + "/ledger/b-0001.jsonl")
        let again = try AccountSync(ledgerA).merge(files: [b.file(of: ledgerB), b.file(of: ledgerB)])
        #expect(again.addedCount == 0)
        #expect(again.alreadyPresent == 8)
        #expect(again.problems == [])
        #expect(ledgerA.balance == balance)
        #expect(try readBytes(a.file(of: ledgerA)) == bytesA)
        #expect(try readBytes(a.directory + "/ledger/b-0001.jsonl") == bytesB)
        // Merging a device's own file into itself adds nothing either.
        let own = try AccountSync(ledgerA).merge(files: [a.file(of: ledgerA)])
        #expect(own.addedCount == 0 && own.problems.isEmpty)
    }

    @Test func mergeIsCommutative() throws {
        let (a, ledgerA, b, ledgerB) = try twoDevices()
        let copies = try TemporaryDirectory()
        try copyItem(a.file(of: ledgerA), to: copies.file("a.jsonl"))
        try copyItem(b.file(of: ledgerB), to: copies.file("b.jsonl"))
        _ = try AccountSync(ledgerA).merge(files: [copies.file("b.jsonl")])
        _ = try AccountSync(ledgerB).merge(files: [copies.file("a.jsonl")])
        #expect(ledgerA.balance == ledgerB.balance)
        #expect(ledgerA.balance == MicroCredits(4_920_000))
        #expect(Set(ledgerA.distinctEntries.map(\.id)) == Set(ledgerB.distinctEntries.map(\.id)))
        // Each directory now holds both devices' files, byte for byte the same.
        for device in ["a-0001", "b-0001"] {
            #expect(
                try readBytes(a.directory + "/ledger/\(device).jsonl")
                    == (try readBytes(b.directory + "/ledger/\(device).jsonl")))
        }
    }

    @Test func mergeIsAssociativeAndOrderFree() throws {
        let (a, ledgerA, b, ledgerB) = try twoDevices()
        defer { withExtendedLifetime(a) {} }
        let c = try LedgerFixture(prefix: "c")
        let ledgerC = try c.open()
        try ledgerC.append(chargeDraft("c-c1", pence: 10))
        try ledgerC.decline("c-c1", reason: .notUsable)
        try ledgerC.append(chargeDraft("c-c2", pence: 4))
        let d = try LedgerFixture(prefix: "d")
        let ledgerD = try d.open()
        // A takes B then C; D takes C and B at once, in the other order.
        _ = try AccountSync(ledgerA).merge(files: [b.file(of: ledgerB)])
        _ = try AccountSync(ledgerA).merge(files: [c.file(of: ledgerC)])
        _ = try AccountSync(ledgerD).merge(files: [c.file(of: ledgerC), b.file(of: ledgerB)])
        _ = try AccountSync(ledgerD).merge(files: [a_file(ledgerA)])
        #expect(ledgerA.balance == MicroCredits(5_000_000 - 60_000 - 20_000 - 40_000))
        #expect(ledgerD.balance == ledgerA.balance)
        #expect(Set(ledgerD.distinctEntries.map(\.id)) == Set(ledgerA.distinctEntries.map(\.id)))
    }

    private func a_file(_ ledger: Ledger) -> String { ledger.path(forDevice: ledger.device) }

    @Test func aForkIsReportedAndNothingFromItMerged() throws {
        let (a, ledgerA, b, ledgerB) = try twoDevices()
        _ = try AccountSync(ledgerA).merge(files: [b.file(of: ledgerB)])
        // A copy of B's data directory (a restored backup) goes its own way from #5 on, and so does B.
        let backup = try TemporaryDirectory()
        let forkDirectory = backup.path + "/b-restored"
        try copyItem(b.directory, to: forkDirectory)
        let fork = try Ledger(directory: forkDirectory, clock: FixedClock(day(3)), ids: SequentialIDs(prefix: "f"))
        #expect(fork.device == "b-0001")
        try fork.append(chargeDraft("f-c1", pence: 7))
        try fork.append(chargeDraft("f-c2", pence: 8))
        try ledgerB.append(chargeDraft("b-c3", pence: 1))
        _ = try AccountSync(ledgerA).merge(files: [b.file(of: ledgerB)])
        let balance = ledgerA.balance
        let bytesB = try readBytes(a.directory + "/ledger/b-0001.jsonl")

        let report = try AccountSync(ledgerA).merge(files: [fork.path(forDevice: fork.device)])
        #expect(report.addedCount == 0)
        #expect(report.alreadyPresent == 4)
        #expect(report.problems.count == 1)
        let problem = try #require(report.problems.first)
        #expect(problem.hasPrefix("fork:"))
        #expect(problem.contains("line 5") && problem.contains("b-0001 #5"))
        #expect(ledgerA.entry(id: "f-c1") == nil && ledgerA.entry(id: "f-c2") == nil)
        #expect(ledgerA.balance == balance)
        #expect(try readBytes(a.directory + "/ledger/b-0001.jsonl") == bytesB)
    }

    @Test func aConflictIsReportedAndNothingFromItMerged() throws {
        let a = try LedgerFixture(prefix: "a")
        let c = try LedgerFixture(prefix: "c")
        let ledgerA = try a.open()
        let ledgerC = try c.open()
        try ledgerA.append(chargeDraft("shared", pence: 5))
        try ledgerC.append(chargeDraft("c-before", pence: 1))
        try ledgerC.append(chargeDraft("shared", pence: 7))
        try ledgerC.append(chargeDraft("c-after", pence: 1))
        let report = try AccountSync(ledgerA).merge(files: [c.file(of: ledgerC)])
        #expect(report.added == ["c-0001": 2])
        #expect(report.problems.count == 1)
        let problem = try #require(report.problems.first)
        #expect(problem.hasPrefix("conflict:"))
        #expect(problem.contains("line 3") && problem.contains("shared"))
        #expect(ledgerA.entry(id: "c-before") != nil)
        #expect(ledgerA.entry(id: "c-after") == nil)
        #expect(ledgerA.entry(id: "shared")?.amount == MicroCredits(-50_000))
        #expect(try lines(of: a.directory + "/ledger/c-0001.jsonl").count == 2)
        #expect(ledgerA.balance == MicroCredits(5_000_000 - 50_000 - 10_000))
    }

    @Test func aGapIsReportedAndNothingFromItMerged() throws {
        let (a, ledgerA, b, ledgerB) = try twoDevices()
        let copies = try TemporaryDirectory()
        var bLines = try lines(of: b.file(of: ledgerB))
        bLines.remove(at: 2)
        try writeLines(bLines, to: copies.file("b-0001.jsonl"))
        let balance = ledgerA.balance
        let report = try AccountSync(ledgerA).merge(files: [copies.file("b-0001.jsonl")])
        #expect(report.added == ["b-0001": 2])
        #expect(report.problems.count == 1)
        let problem = try #require(report.problems.first)
        #expect(problem.hasPrefix("gap:"))
        #expect(problem.contains("#3 is missing"))
        #expect(ledgerA.entry(id: "b-c1") != nil)
        #expect(ledgerA.entry(id: "b-c2") == nil)
        #expect(try lines(of: a.directory + "/ledger/b-0001.jsonl").count == 2)
        #expect(ledgerA.balance == (try balance.adding(MicroCredits(-30_000))))
    }

    @Test func anUnreadableInputLineMergesNothing() throws {
        let (a, ledgerA, b, ledgerB) = try twoDevices()
        let copies = try TemporaryDirectory()
        var bLines = try lines(of: b.file(of: ledgerB))
        bLines[2] = Array("{\"id\":1.5}".utf8)
        try writeLines(bLines, to: copies.file("b.jsonl"))
        let error = expectAnyLedgerError { _ = try AccountSync(ledgerA).merge(files: [copies.file("b.jsonl")]) }
        guard case .corruptLine(let file, let line, _) = error else {
            Issue.record("expected corruptLine, got \(String(describing: error))")
            return
        }
        #expect(file == copies.file("b.jsonl"))
        #expect(line == 3)
        #expect(!exists(a.directory + "/ledger/b-0001.jsonl"))
        #expect(ledgerA.balance == MicroCredits(4_940_000))
    }

    @Test func declinesOfTheSameChargeOnTwoDevicesCountOnce() throws {
        let (a, ledgerA, b, ledgerB) = try twoDevices()
        _ = try AccountSync(ledgerA).merge(files: [b.file(of: ledgerB)])
        _ = try AccountSync(ledgerB).merge(files: [a.file(of: ledgerA)])
        // Both decline a-c1 before syncing again.
        try ledgerA.decline("a-c1", reason: .test)
        try ledgerB.decline("a-c1", reason: .notNeeded)
        _ = try AccountSync(ledgerA).merge(files: [b.file(of: ledgerB)])
        _ = try AccountSync(ledgerB).merge(files: [a.file(of: ledgerA)])
        #expect(ledgerA.balance == ledgerB.balance)
        #expect(ledgerA.balance == MicroCredits(5_000_000 - 10_000 - 20_000))
        #expect(ledgerA.entries.filter { $0.id == "refund-a-c1" }.count == 2, "both refunds are kept")
        #expect(ledgerA.distinctEntries.filter { $0.id == "refund-a-c1" }.count == 1, "and counted once")
        // A third decline is refused on either device.
        _ = expectAnyLedgerError { try ledgerB.decline("a-c1", reason: .test) }
    }
}
