import CreditLedger
import Foundation
import Testing

/// One account across devices (issue 12): joining, the devices list, a merge that takes only what verifies, heads
/// that travel, one opening, every receipt once.
@Suite struct AccountTests {
    /// Every file under `directory` and its bytes (the lock file aside: taking a lock is not a change).
    private func snapshot(_ directory: String) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = directory + "/" + name
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                !name.hasSuffix(".lock")
            else { continue }
            files[name] = try readBytes(path)
        }
        return files
    }

    /// Device A (signed, three charges) and device B joined from A's directory.
    private func joined() throws -> (a: LedgerFixture, ledgerA: Ledger, b: LedgerFixture, report: JoinReport) {
        let a = try LedgerFixture(prefix: "a")
        let ledgerA = try a.openSigned()
        for index in 1...3 { try ledgerA.append(chargeDraft("a-c\(index)", pence: Int64(index))) }
        let b = try LedgerFixture(prefix: "b")
        let report = try AccountSync.join(directory: b.directory, account: a.directory, ids: b.ids)
        return (a, ledgerA, b, report)
    }

    private func refusal(_ body: () throws -> Void) -> MergeRefusal? {
        do {
            try body()
            Issue.record("expected a MergeRefusal, but nothing was thrown")
        } catch let refusal as MergeRefusal {
            return refusal
        } catch {
            Issue.record("expected a MergeRefusal, got \(error)")
        }
        return nil
    }

    // MARK: join

    @Test func joinTakesTheKeysAndEveryFileAndWritesNoOpening() throws {
        let (a, ledgerA, b, report) = try joined()
        #expect(report.device == "b-0001")
        #expect(report.devices == ["a-0001"])
        #expect(report.entries == 4 && report.heads == 1)
        #expect(report.balance == ledgerA.balance)
        for key in ["ledger.key", "head-signing.pem"] {
            #expect(try readBytes(b.directory + "/keys/" + key) == (try readBytes(a.directory + "/keys/" + key)))
            #expect(try fileMode(b.directory + "/keys/" + key) == 0o600)
        }
        #expect(try readBytes(b.directory + "/ledger/a-0001.jsonl") == (try readBytes(a.file(of: ledgerA))))
        #expect(exists(b.directory + "/heads/a-0001.json"))
        let ledgerB = try b.openSigned()
        #expect(ledgerB.device == "b-0001")
        #expect(ledgerB.balance == ledgerA.balance)
        #expect(!exists(b.directory + "/ledger/b-0001.jsonl"), "no opening written")
        #expect(ledgerB.entries.filter { $0.kind == .opening }.count == 1)
        #expect(ledgerB.notices.isEmpty)
        // Its first entry makes its file, chained from #1, with a head.
        try ledgerB.append(chargeDraft("b-c1", pence: 10))
        #expect(try lines(of: b.file(of: ledgerB)).count == 1)
        #expect(ledgerB.notices.isEmpty, "\(ledgerB.notices)")
        #expect(try ledgerB.verify(receiptCheck: nil).problems == [])
        // Merged both ways (directories), the same balance, verify clean on both.
        _ = try AccountSync(ledgerA).merge(files: [b.directory])
        _ = try AccountSync(ledgerB).merge(files: [a.directory])
        #expect(ledgerA.balance == ledgerB.balance)
        #expect(ledgerA.balance == MicroCredits(5_000_000 - 60_000 - 100_000))
        #expect(try ledgerA.verify(receiptCheck: nil).problems == [])
        #expect(try ledgerB.verify(receiptCheck: nil).problems == [])
    }

    @Test func joinIsRefusedWhenTheDirectoryHasALedgerAndWritesNothing() throws {
        let (a, _, b, _) = try joined()
        let before = try snapshot(b.directory)
        do {
            try AccountSync.join(directory: b.directory, account: a.directory)
            Issue.record("a second join was accepted")
        } catch let error as JoinError {
            guard case .alreadyHasLedger = error else { throw error }
            #expect(error.description.contains("credit merge"))
        }
        #expect(try snapshot(b.directory) == before)
        // A data directory with a ledger of its own too.
        let c = try LedgerFixture(prefix: "c")
        _ = try c.openSigned()
        let beforeC = try snapshot(c.directory)
        #expect(throws: JoinError.self) { try AccountSync.join(directory: c.directory, account: a.directory) }
        #expect(try snapshot(c.directory) == beforeC)
    }

    @Test func joinFromSomethingThatIsNoAccountIsRefused() throws {
        let empty = try TemporaryDirectory()
        let b = try LedgerFixture(prefix: "b")
        do {
            try AccountSync.join(directory: b.directory, account: empty.path)
            Issue.record("joined nothing")
        } catch let error as JoinError {
            guard case .notAnAccount = error else { throw error }
        }
        #expect(!exists(b.directory + "/device"))
    }

    @Test func devicesListsEveryDeviceItsHeadAndWhichIsThisOne() throws {
        let (a, ledgerA, b, _) = try joined()
        let ledgerB = try b.openSigned()
        let before = try DeviceSummary.list(in: ledgerB)
        #expect(before.map(\.id) == ["a-0001", "b-0001"])
        #expect(before[0].entries == 4 && before[0].lastSequence == 4 && before[0].head == .agrees)
        #expect(before[0].headPresent && before[0].headAgrees && !before[0].isThisDevice)
        #expect(before[1].isThisDevice && before[1].entries == 0 && !before[1].hasFile && before[1].head == .missing)
        try ledgerB.append(chargeDraft("b-c1", pence: 1))
        _ = try AccountSync(ledgerA).merge(files: [b.directory])
        let after = try DeviceSummary.list(in: ledgerA)
        #expect(after.map(\.head) == [.agrees, .agrees])
        #expect(after[0].isThisDevice && !after[1].isThisDevice)
        let json = try JSONEncoder().encode(after)
        #expect(try JSONDecoder().decode([DeviceSummary].self, from: json) == after)
        _ = a
    }

    // MARK: merge takes only what verifies

    @Test func anotherAccountsFileIsRefusedAndNothingChanges() throws {
        let a = try LedgerFixture(prefix: "a")
        let other = try LedgerFixture(prefix: "o")
        let ledgerA = try a.openSigned()
        let ledgerO = try other.openSigned()
        try ledgerO.append(chargeDraft("o-c1", pence: 3))
        let before = try snapshot(a.directory)
        let refused = refusal { _ = try AccountSync(ledgerA).merge(files: [other.file(of: ledgerO)]) }
        #expect(refused?.reason == .otherAccount)
        #expect(refused?.line == 1 && refused?.file == other.file(of: ledgerO))
        #expect(refused?.description.contains("credit join") == true)
        #expect(try snapshot(a.directory) == before)
        // Its whole directory too.
        #expect(refusal { _ = try AccountSync(ledgerA).merge(files: [other.directory]) }?.reason == .otherAccount)
        #expect(try snapshot(a.directory) == before)
        #expect(ledgerA.balance == Ledger.defaultOpeningCredit)
    }

    @Test func aForgedLineIsRefusedWithItsLineAndNothingChanges() throws {
        let (a, ledgerA, b, _) = try joined()
        let ledgerB = try b.openSigned()
        for index in 1...3 { try ledgerB.append(chargeDraft("b-c\(index)", pence: 2)) }
        let copies = try TemporaryDirectory()
        var bLines = try lines(of: b.file(of: ledgerB))
        let text = String(decoding: bLines[1], as: UTF8.self).replacingOccurrences(
            of: "\"amount\":-20000", with: "\"amount\":-10")
        bLines[1] = Array(text.utf8)
        try writeLines(bLines, to: copies.file("b-0001.jsonl"))
        let before = try snapshot(a.directory)
        let refused = refusal { _ = try AccountSync(ledgerA).merge(files: [copies.file("b-0001.jsonl")]) }
        #expect(refused?.line == 2)
        if case .forged = refused?.reason {
        } else {
            Issue.record("expected forged, got \(String(describing: refused))")
        }
        #expect(try snapshot(a.directory) == before)
        // A made-up MAC on every line (no key at all) is refused as another account's.
        let made = try lines(of: b.file(of: ledgerB)).map { line -> [UInt8] in
            var text = String(decoding: line, as: UTF8.self)
            let range = text.range(of: "\"mac\":\"")!
            text.replaceSubrange(
                range.upperBound..<text.index(range.upperBound, offsetBy: 64), with: String(repeating: "ab", count: 32))
            return Array(text.utf8)
        }
        try writeLines(made, to: copies.file("made-up.jsonl"))
        #expect(
            refusal { _ = try AccountSync(ledgerA).merge(files: [copies.file("made-up.jsonl")]) }?.reason
                == .otherAccount)
        // A gapped chain.
        var gapped = try lines(of: b.file(of: ledgerB))
        gapped.remove(at: 1)
        try writeLines(gapped, to: copies.file("gapped.jsonl"))
        let gap = refusal { _ = try AccountSync(ledgerA).merge(files: [copies.file("gapped.jsonl")]) }
        if case .chain = gap?.reason {} else { Issue.record("expected chain, got \(String(describing: gap))") }
        #expect(try snapshot(a.directory) == before)
    }

    @Test func aForkIsRefusedWholeAndNothingChanges() throws {
        let (a, ledgerA, b, _) = try joined()
        let ledgerB = try b.openSigned()
        try ledgerB.append(chargeDraft("b-c1", pence: 2))
        _ = try AccountSync(ledgerA).merge(files: [b.directory])
        // A restored copy of B goes its own way.
        let backup = try TemporaryDirectory()
        try copyItem(b.directory, to: backup.path + "/b")
        try ledgerB.append(chargeDraft("b-c2", pence: 3))
        let fork = try Ledger.openSigned(
            directory: backup.path + "/b", clock: FixedClock(day(3)), ids: SequentialIDs(prefix: "f"))
        try fork.append(chargeDraft("f-c2", pence: 9))
        _ = try AccountSync(ledgerA).merge(files: [b.directory])
        let before = try snapshot(a.directory)
        let refused = refusal { _ = try AccountSync(ledgerA).merge(files: [fork.path(forDevice: fork.device)]) }
        if case .disagrees(let detail) = refused?.reason {
            #expect(detail.hasPrefix("fork:"))
        } else {
            Issue.record("expected disagrees, got \(String(describing: refused))")
        }
        #expect(try snapshot(a.directory) == before)
    }

    @Test func aHeadThatDoesNotAgreeIsRefused() throws {
        let (a, ledgerA, b, _) = try joined()
        let ledgerB = try b.openSigned()
        for index in 1...3 { try ledgerB.append(chargeDraft("b-c\(index)", pence: 2)) }
        // B's directory with its file cut back below its head.
        var bLines = try lines(of: b.file(of: ledgerB))
        bLines.removeLast()
        try writeLines(bLines, to: b.file(of: ledgerB))
        let before = try snapshot(a.directory)
        let refused = refusal { _ = try AccountSync(ledgerA).merge(files: [b.directory]) }
        if case .head = refused?.reason {} else { Issue.record("expected head, got \(String(describing: refused))") }
        #expect(try snapshot(a.directory) == before)
    }

    // MARK: heads travel

    @Test func aMergedDevicesFileCutBackIsReported() throws {
        let (a, ledgerA, b, _) = try joined()
        let ledgerB = try b.openSigned()
        for index in 1...3 { try ledgerB.append(chargeDraft("b-c\(index)", pence: 2)) }
        // A bare file: the head is signed here for what verified.
        let report = try AccountSync(ledgerA).merge(files: [b.file(of: ledgerB)])
        #expect(report.headsKept == ["b-0001"])
        #expect(try ledgerA.verify(receiptCheck: nil).problems == [])
        // Later merges keep it up.
        try ledgerB.append(chargeDraft("b-c4", pence: 2))
        _ = try AccountSync(ledgerA).merge(files: [b.directory])
        #expect(try DeviceSummary.list(in: ledgerA).first { $0.id == "b-0001" }?.headSequence == 4)
        var merged = try lines(of: a.directory + "/ledger/b-0001.jsonl")
        merged.removeLast(2)
        try writeLines(merged, to: a.directory + "/ledger/b-0001.jsonl")
        let problems = try LedgerVerifier.verify(
            directory: a.directory, requiringHeadOf: ledgerA.device, receiptCheck: nil
        )
        .problems
        #expect(problems.map(\.kind) == [.truncated], "\(problems)")
        #expect(problems.first?.file.hasSuffix("b-0001.jsonl") == true)
    }

    @Test func aHeadWhoseDeviceFileIsGoneIsReported() throws {
        let a = try LedgerFixture(prefix: "a")
        let ledgerA = try a.openSigned()
        try ledgerA.append(chargeDraft("a-c1", pence: 2))
        try FileManager.default.removeItem(atPath: a.file(of: ledgerA))
        try FileManager.default.removeItem(atPath: a.directory + "/device")
        let fresh = try a.openSigned()
        #expect(fresh.device == "a-0002" && fresh.wasCreated)
        let problems = try fresh.verify(receiptCheck: nil).problems
        #expect(problems.map(\.kind) == [.headOrphaned], "\(problems)")
        #expect(problems.first?.file.hasSuffix("heads/a-0001.json") == true)
    }

    // MARK: one opening

    @Test func theHistoryOfANewerInstallStartsWithTheFirstOpening() throws {
        // The first device ("z", day 0) and a newer install set up by copying the keys by hand ("a", its own
        // opening ten days later); its file sorts first, so its opening is read first.
        let old = try LedgerFixture(prefix: "z")
        let ledgerOld = try Ledger.openSigned(
            directory: old.directory, clock: FixedClock(day(0), step: 1000), ids: old.ids)
        for index in 1...5 { try ledgerOld.append(chargeDraft("z-c\(index)", pence: 80)) }
        let new = try LedgerFixture(prefix: "a")
        try FileManager.default.createDirectory(atPath: new.directory, withIntermediateDirectories: true)
        try copyItem(old.directory + "/keys", to: new.directory + "/keys")
        let ledgerNew = try Ledger.openSigned(
            directory: new.directory, clock: FixedClock(day(10), step: 1000), ids: new.ids)
        try ledgerNew.append(chargeDraft("a-c1", pence: 30))
        _ = try AccountSync(ledgerNew).merge(files: [old.directory])
        let history = ledgerNew.distinctEntries
        #expect(history.first?.kind == .opening && history.first?.device == "z-0001")
        #expect(history.filter { $0.kind == .opening }.count == 1)
        var running = MicroCredits.zero
        for entry in history {
            running = try running.adding(entry.amount)
            #expect(running >= .zero, "a balance that never was: \(running) after \(entry.id)")
        }
        #expect(running == ledgerNew.balance)
        #expect(ledgerNew.balance == MicroCredits(5_000_000 - 4_000_000 - 300_000))
        // Read again from the start, and in the other direction: the same.
        #expect(try new.openSigned().distinctEntries.map(\.id) == history.map(\.id))
        _ = try AccountSync(ledgerOld).merge(files: [new.directory])
        #expect(ledgerOld.distinctEntries.first?.device == "z-0001")
        #expect(ledgerOld.balance == ledgerNew.balance)
        let union = LedgerUnion.union(ledgerNew.entries.filter { $0.device == "a-0001" }, ledgerOld.entries)
        #expect(union.distinctEntries.first?.device == "z-0001")
    }

    // MARK: every receipt once

    private func topUp(_ id: String, reference: String) -> EntryDraft {
        EntryDraft(id: id, kind: .topup, amount: MicroCredits(10_000_000), reference: reference, product: "pack")
    }

    @Test func aSecondCreditOfOneStoreTransactionIsRefusedOnAppend() throws {
        let a = try LedgerFixture(prefix: "a")
        let ledger = try a.openSigned()
        try ledger.append(topUp("topup-simulated-T1", reference: "T1"))
        let bytes = try readBytes(a.file(of: ledger))
        _ = expectAnyLedgerError { try ledger.append(topUp("topup-simulated-again-T1", reference: "T1")) }
        #expect(try readBytes(a.file(of: ledger)) == bytes)
        #expect(ledger.balance == MicroCredits(15_000_000))
    }

    @Test func aReplayedReceiptFromAnotherDeviceCountsOnceAndIsReported() throws {
        let (a, ledgerA, b, _) = try joined()
        let ledgerB = try b.openSigned()
        try ledgerA.append(topUp("topup-simulated-T1", reference: "T1"))
        // B, not knowing A's, credits the same store transaction under another id.
        try ledgerB.append(topUp("topup-simulated-replay-T1", reference: "T1"))
        let balance = ledgerA.balance
        let totals = try LedgerTotals(of: ledgerA)
        let report = try AccountSync(ledgerA).merge(files: [b.directory])
        #expect(report.problems.count == 1 && report.problems[0].hasPrefix("receipt:"), "\(report.problems)")
        #expect(report.receiptsCountedOnce.count == 1)
        #expect(ledgerA.balance == balance)
        #expect(try LedgerTotals(of: ledgerA) == totals)
        #expect(ledgerA.distinctEntries.filter { $0.kind == .topup }.count == 1)
        #expect(ledgerA.notices.contains { if case .receiptCountedOnce = $0 { true } else { false } })
        let reread = try a.openSigned()
        #expect(reread.balance == balance)
        let verification = try ledgerA.verify(receiptCheck: nil)
        #expect(verification.problems.map(\.kind) == [.receiptReplayed], "\(verification.problems)")
        #expect(verification.balance == balance)
        // And on B after merging back: the same balance.
        _ = try AccountSync(ledgerB).merge(files: [a.directory])
        #expect(ledgerB.balance == balance)
        #expect(LedgerUnion.union(ledgerA.entries, ledgerB.entries).balance == balance)
    }
}
