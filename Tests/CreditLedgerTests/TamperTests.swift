import CreditLedger
import Foundation
import Testing

/// Issue 3, "How it is checked": tamper with a real signed ledger of 20 entries in each way, and show that the
/// verifier names each with its kind and line; an untouched ledger and a correct merge verify clean.
@Suite struct TamperTests {
    /// A signed ledger made with `openSigned`: the opening and 19 charges, 20 entries on lines 1 to 20.
    final class SignedLedger {
        let fixture: LedgerFixture
        let ledger: Ledger
        var path: String { fixture.file(of: ledger) }
        var device: String { ledger.device }

        init(prefix: String = "dev", entries: Int = 20) throws {
            fixture = try LedgerFixture(prefix: prefix)
            ledger = try fixture.openSigned()
            let features = ["transcript", "debrief", "send", "readNote", "saveToVault"]
            for index in 1..<entries {
                try ledger.append(
                    chargeDraft(
                        "\(prefix)-c\(index)", pence: Int64(index % 5 + 1), feature: features[index % features.count],
                        subject: "note-\(index)"))
            }
        }

        /// Verifies with the verifier alone (no ledger is opened, so nothing on disk is touched): the data
        /// directory's keys and heads, this device's head required.
        func verify(files: [String]? = nil) throws -> VerificationReport {
            let keys = try LedgerKeys.load(from: fixture.directory)
            var heads: [String: SignedHead] = [:]
            for name in listDirectory(fixture.directory + "/heads") where name.hasSuffix(".json") {
                let owner = String(name.dropLast(5))
                // An unreadable head is no head here (`Ledger.verify` says more).
                heads[owner] = try? SignedHead.read(in: fixture.directory, device: owner)
            }
            let verifier = LedgerVerifier(macKey: keys.macKey, headPublicKey: keys.headKey.publicKey, receiptCheck: nil)
            let paths =
                files
                ?? listDirectory(fixture.directory + "/ledger").filter { $0.hasSuffix(".jsonl") }
                .map { fixture.directory + "/ledger/" + $0 }
            return try verifier.verify(files: paths, heads: heads, requireHeads: [device])
        }

        func lines() throws -> [[UInt8]] { try CreditLedgerTests.lines(of: path) }
        func write(_ lines: [[UInt8]]) throws { try writeLines(lines, to: path) }
    }

    /// The problems as (kind, line) pairs, for exact comparison.
    private func found(_ report: VerificationReport) -> [String] {
        report.problems.map { "\($0.kind.rawValue)@\($0.line.map(String.init) ?? "-")" }
    }

    private func replacing(_ line: [UInt8], _ old: String, _ new: String) throws -> [UInt8] {
        let text = String(decoding: line, as: UTF8.self)
        try #require(text.contains(old), "\(old) is not in \(text)")
        return Array(text.replacing(old, with: new).utf8)
    }

    // MARK: clean

    @Test func anUntouchedLedgerVerifiesClean() throws {
        let signed = try SignedLedger()
        let report = try signed.verify()
        #expect(report.problems == [])
        #expect(report.entriesChecked == 20)
        #expect(report.devices == [signed.device])
        #expect(report.balance == signed.ledger.balance)
        // Through the ledger too.
        let viaLedger = try signed.ledger.verify(receiptCheck: nil)
        #expect(viaLedger.isClean && viaLedger.entriesChecked == 20)
    }

    @Test func aCorrectMergeOfTwoDevicesVerifiesClean() throws {
        let a = try SignedLedger(prefix: "a", entries: 10)
        // The second device shares the owner's keys: copied before its first open.
        let b = try LedgerFixture(prefix: "b")
        try FileManager.default.createDirectory(atPath: b.directory, withIntermediateDirectories: true)
        try copyItem(a.fixture.directory + "/keys", to: b.directory + "/keys")
        let ledgerB = try b.openSigned()
        for index in 1...9 { try ledgerB.append(chargeDraft("b-c\(index)", pence: 2)) }
        try ledgerB.decline("b-c4", reason: .notNeeded)

        let report = try AccountSync(a.ledger).merge(files: [b.file(of: ledgerB)])
        #expect(report.problems == [])
        #expect(report.addedCount == 11)
        let verification = try a.ledger.verify(receiptCheck: nil)
        #expect(verification.problems == [])
        #expect(verification.entriesChecked == 21)
        #expect(verification.devices == [a.device, ledgerB.device].sorted())
        #expect(verification.balance == a.ledger.balance)
        // And the other way round.
        _ = try AccountSync(ledgerB).merge(files: [a.path])
        let other = try ledgerB.verify(receiptCheck: nil)
        #expect(other.problems == [])
        #expect(other.balance == verification.balance)
    }

    // MARK: tampering

    @Test func changingOneAmount() throws {
        let signed = try SignedLedger()
        var lines = try signed.lines()
        lines[7] = try replacing(lines[7], "\"amount\":-", "\"amount\":-1")
        try signed.write(lines)
        #expect(found(try signed.verify()) == ["changed@8"])
    }

    /// One byte changed anywhere that keeps the line readable: in the id, the time, the feature, the subject, the
    /// sequence, the amount, the balance, the chain (`prev`) or the MAC itself.
    @Test(arguments: [
        ("id", "\"id\":\"dev-c1", "\"id\":\"dev-c7"),
        ("time", "\"time\":\"2026-11-29T12:00:1", "\"time\":\"2026-11-29T12:00:0"),
        ("feature", "\"feature\":\"debrief", "\"feature\":\"debriek"),
        ("subject", "\"subject\":\"note-1", "\"subject\":\"note-9"),
        ("sequence", "\"seq\":12", "\"seq\":13"),
        ("sequence down", "\"seq\":12", "\"seq\":11"),
        ("kind (a word)", "\"kind\":\"charge\"", "\"kind\":\"refund\""),
        ("balance", "\"balanceAfter\":4", "\"balanceAfter\":5"),
        ("prev", "\"prev\":\"", "\"prev\":\"X"),
        ("mac", "\"mac\":\"", "\"mac\":\"X"),
    ])
    func changingOneByteOfALine(_ field: String, _ old: String, _ new: String) throws {
        let signed = try SignedLedger()
        var lines = try signed.lines()
        var line = lines[11]
        if field == "prev" || field == "mac" {
            // Flip one hex digit in place (the line keeps its length and stays readable).
            let text = String(decoding: line, as: UTF8.self)
            let start = try #require(text.range(of: old)).upperBound
            let offset = text.utf8.distance(from: text.startIndex, to: start) + 5
            line[offset] = line[offset] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        } else {
            line = try replacing(line, old, new)
            #expect(line.count == lines[11].count, "the line keeps its length")
        }
        lines[11] = line
        try signed.write(lines)
        #expect(found(try signed.verify()) == ["changed@12"], "a changed \(field)")
    }

    @Test(arguments: [7, 20])
    func spellingAMACInCapitalsIsAChangeOfThatLine(_ line: Int) throws {
        // The digits still spell the right MAC, but the ledger never writes them so: the line was changed.
        let signed = try SignedLedger()
        var lines = try signed.lines()
        let text = String(decoding: lines[line - 1], as: UTF8.self)
        let mac = try #require(try EntryCodec.parse(lines[line - 1]).mac)
        lines[line - 1] = Array(text.replacing("\"mac\":\"\(mac)\"", with: "\"mac\":\"\(mac.uppercased())\"").utf8)
        try #require(lines[line - 1] != Array(text.utf8))
        try signed.write(lines)
        let report = try signed.verify()
        #expect(report.problems.contains { $0.line == line }, "\(report.problems.map(\.description))")
        #expect(report.problems.allSatisfy { $0.kind == .changed }, "\(report.problems.map(\.description))")
    }

    @Test func changingAByteSoTheLineCannotBeRead() throws {
        let signed = try SignedLedger()
        var lines = try signed.lines()
        lines[11][0] = UInt8(ascii: "[")
        try signed.write(lines)
        let report = try signed.verify()
        #expect(report.problems.count == 1)
        #expect(report.problems.first?.line == 12)
        #expect([.changed, .unreadable].contains(report.problems.first?.kind))
    }

    @Test func deletingAMiddleEntry() throws {
        let signed = try SignedLedger()
        var lines = try signed.lines()
        lines.remove(at: 9)
        try signed.write(lines)
        let report = try signed.verify()
        #expect(found(report) == ["deleted@10"])
        #expect(report.problems.first?.detail.contains("#10") == true)
    }

    @Test(arguments: [(5, 6), (4, 14), (0, 1)])
    func swappingTwoEntries(_ first: Int, _ second: Int) throws {
        let signed = try SignedLedger()
        var lines = try signed.lines()
        lines.swapAt(first, second)
        try signed.write(lines)
        #expect(found(try signed.verify()) == ["reordered@\(first + 1)"])
    }

    @Test func cuttingOffTheLastEntry() throws {
        let signed = try SignedLedger()
        try signed.write(Array(try signed.lines().dropLast()))
        let report = try signed.verify()
        #expect(found(report) == ["truncated@19"])
        #expect(report.problems.first?.detail.contains("1 entry was cut off") == true)
    }

    @Test func cuttingOffTheLastTen() throws {
        let signed = try SignedLedger()
        try signed.write(Array(try signed.lines().dropLast(10)))
        let report = try signed.verify()
        #expect(found(report) == ["truncated@10"])
        #expect(report.problems.first?.detail.contains("10 entries were cut off") == true)
    }

    @Test func cuttingALineInHalf() throws {
        let signed = try SignedLedger()
        let bytes = try readBytes(signed.path)
        try writeBytes(Array(bytes.dropLast(40)), to: signed.path)
        let report = try signed.verify()
        #expect(report.problems.contains { $0.kind == .truncated && $0.line == 20 })
        #expect(report.problems.allSatisfy { $0.kind == .truncated })
    }

    @Test func restoringAnOlderCopy() throws {
        let signed = try SignedLedger(entries: 10)
        let older = try readBytes(signed.path)
        for index in 1...5 { try signed.ledger.append(chargeDraft("later-\(index)", pence: 1)) }
        #expect(try signed.verify().problems == [])
        try writeBytes(older, to: signed.path)
        let report = try signed.verify()
        #expect(found(report) == ["truncated@10"])
        #expect(report.problems.first?.detail.contains("an older copy was restored") == true)
    }

    @Test func restoringAnOtherCopyOfTheSameLength() throws {
        let signed = try SignedLedger(entries: 10)
        let backup = try TemporaryDirectory()
        try copyItem(signed.fixture.directory, to: backup.path + "/copy")
        // The live ledger and its copy each write a different entry #11; the copy's file is put back.
        try signed.ledger.append(chargeDraft("live", pence: 1))
        let copy = try Ledger.openSigned(
            directory: backup.path + "/copy", clock: FixedClock(day(1)), ids: SequentialIDs(prefix: "x"))
        try copy.append(chargeDraft("copy", pence: 2))
        try copyItem(copy.path(forDevice: copy.device), to: signed.path + ".restored")
        try FileManager.default.removeItem(atPath: signed.path)
        try FileManager.default.moveItem(atPath: signed.path + ".restored", toPath: signed.path)
        #expect(found(try signed.verify()) == ["changed@11"])
    }

    @Test(arguments: [("other", 7), ("other", 20), ("dev", 7)])
    func splicingInAnEntryFromAnotherLedger(_ otherPrefix: String, _ at: Int) throws {
        let signed = try SignedLedger()
        // Another ledger, with its own keys (and, for "dev", the same device name).
        let other = try SignedLedger(prefix: otherPrefix, entries: 5)
        #expect(
            try LedgerKeys.load(from: other.fixture.directory).macKey
                != (try LedgerKeys.load(from: signed.fixture.directory).macKey))
        var lines = try signed.lines()
        lines.insert(try other.lines()[2], at: at)
        try signed.write(lines)
        #expect(found(try signed.verify()) == ["inserted@\(at + 1)"])
    }

    @Test func duplicatingAnEntryWithOtherContent() throws {
        // Two devices of one owner (the same keys), each validly writing an entry with the same id.
        let a = try SignedLedger(prefix: "a", entries: 10)
        let b = try LedgerFixture(prefix: "b")
        try FileManager.default.createDirectory(atPath: b.directory, withIntermediateDirectories: true)
        try copyItem(a.fixture.directory + "/keys", to: b.directory + "/keys")
        let ledgerB = try b.openSigned()
        try ledgerB.append(chargeDraft("b-c1", pence: 1))
        try ledgerB.append(chargeDraft("a-c3", pence: 9, feature: "createVault"))
        try ledgerB.append(chargeDraft("b-c2", pence: 1))
        // B's file lands in A's directory as it is (a sync that did not go through merge).
        let copied = a.fixture.directory + "/ledger/" + ledgerB.device + ".jsonl"
        try copyItem(b.file(of: ledgerB), to: copied)
        let report = try a.verify()
        #expect(report.problems.count == 1)
        let problem = try #require(report.problems.first)
        #expect(problem.kind == .duplicated)
        #expect(problem.file == copied)
        #expect(problem.line == 3)
        #expect(problem.detail.contains("a-c3") && problem.detail.contains(a.path + ":4"))
        #expect(try a.ledger.verify(receiptCheck: nil).problems.map(\.kind) == [.duplicated])
    }

    @Test func duplicatingALine() throws {
        let signed = try SignedLedger()
        var lines = try signed.lines()
        lines.insert(lines[9], at: 10)
        try signed.write(lines)
        #expect(found(try signed.verify()) == ["duplicated@11"])
    }

    @Test func forkWithinAFile() throws {
        let signed = try SignedLedger(entries: 10)
        let backup = try TemporaryDirectory()
        try copyItem(signed.fixture.directory, to: backup.path + "/copy")
        let copy = try Ledger.openSigned(
            directory: backup.path + "/copy", clock: FixedClock(day(1)), ids: SequentialIDs(prefix: "x"))
        try copy.append(chargeDraft("fork-1", pence: 3))
        for index in 1...10 { try signed.ledger.append(chargeDraft("main-\(index)", pence: 1)) }
        // The copy's #11 is appended to the live file: two entries at (device, 11).
        var lines = try signed.lines()
        lines.append(try CreditLedgerTests.lines(of: copy.path(forDevice: copy.device))[10])
        try signed.write(lines)
        let report = try signed.verify()
        #expect(found(report) == ["forked@21"])
        #expect(report.problems.first?.detail.contains("first on line 11") == true)
    }

    @Test func forkAcrossTwoCopiesOfADeviceFile() throws {
        let signed = try SignedLedger(entries: 10)
        let backup = try TemporaryDirectory()
        try copyItem(signed.fixture.directory, to: backup.path + "/copy")
        let copy = try Ledger.openSigned(
            directory: backup.path + "/copy", clock: FixedClock(day(1)), ids: SequentialIDs(prefix: "x"))
        try copy.append(chargeDraft("fork-1", pence: 3))
        try signed.ledger.append(chargeDraft("main-1", pence: 1))
        let copyPath = copy.path(forDevice: copy.device)
        let report = try signed.verify(files: [signed.path, copyPath])
        let forks = report.problems.filter { $0.kind == .forked }
        #expect(forks.count == 1)
        #expect(forks.first?.file == copyPath)
        #expect(forks.first?.line == 11)
    }

    // MARK: heads

    @Test func aHeadWithABadSignatureIsReported() throws {
        let signed = try SignedLedger()
        let headPath = SignedHead.path(in: signed.fixture.directory, device: signed.device)
        var head = try #require(try SignedHead.read(in: signed.fixture.directory, device: signed.device))
        head.balance += 1_000_000
        try head.write(in: signed.fixture.directory)
        #expect(exists(headPath))
        #expect(found(try signed.verify()) == ["head-invalid@-"])
    }

    @Test func aMissingHeadIsReported() throws {
        let signed = try SignedLedger()
        try FileManager.default.removeItem(atPath: SignedHead.path(in: signed.fixture.directory, device: signed.device))
        #expect(found(try signed.verify()) == ["head-missing@-"])
    }

    @Test func aHeadBehindTheFileIsANoteNotAProblem() throws {
        let signed = try SignedLedger()
        let head = try #require(try SignedHead.read(in: signed.fixture.directory, device: signed.device))
        try signed.ledger.append(chargeDraft("after", pence: 1))
        try head.write(in: signed.fixture.directory)
        let report = try signed.verify()
        #expect(report.problems == [])
        #expect(report.notes.count == 1)
    }

    /// The tamperings a later append could have covered up by writing a fresh head over the evidence.
    enum CoverUp: String, CaseIterable, Sendable {
        case cutTheLastEntry, cutTheLastTen, restoreAnOlderCopy, removeTheHead, forgeTheHead, breakTheHead
    }

    /// Tampered, then the app used as if nothing happened: it opens and appends (nothing is blocked) and says the
    /// head is not kept up, but never writes over the evidence, so `verify` still reports it after 1 and 3 more
    /// entries.
    @Test(arguments: CoverUp.allCases, [1, 3])
    func tamperingIsNotCoveredUpByLaterAppends(_ coverUp: CoverUp, appends: Int) throws {
        let signed = try SignedLedger(entries: 15)
        let older = try readBytes(signed.path)
        for index in 1...5 { try signed.ledger.append(chargeDraft("later-\(index)", pence: 1)) }
        let headPath = SignedHead.path(in: signed.fixture.directory, device: signed.device)
        switch coverUp {
        case .cutTheLastEntry: try signed.write(Array(try signed.lines().dropLast()))
        case .cutTheLastTen: try signed.write(Array(try signed.lines().dropLast(10)))
        case .restoreAnOlderCopy: try writeBytes(older, to: signed.path)
        case .removeTheHead: try FileManager.default.removeItem(atPath: headPath)
        case .forgeTheHead:
            // Made to fit a file cut by one, but signed by nobody.
            try signed.write(Array(try signed.lines().dropLast()))
            var head = try #require(try SignedHead.read(in: signed.fixture.directory, device: signed.device))
            let last = try #require(try signed.lines().last.map { try EntryCodec.parse($0) })
            head.sequence = last.sequence
            head.mac = try #require(last.mac)
            try head.write(in: signed.fixture.directory)
        case .breakTheHead: try writeBytes(Array("{\"device\":".utf8), to: headPath)
        }
        let before = found(try signed.verify())
        #expect(!before.isEmpty, "the tampering itself went unseen")
        let headBytes = FileManager.default.contents(atPath: headPath)

        let reopened = try signed.fixture.openSigned()
        var told = reopened.notices
        reopened.onNotice = { told.append($0) }
        for index in 1...appends { try reopened.append(chargeDraft("after-\(index)", pence: 1)) }
        #expect(
            told.contains {
                if case .headNotKept = $0 { true } else if case .followUpFailed = $0 { true } else { false }
            },
            "the user was not told: \(told)")
        #expect(FileManager.default.contents(atPath: headPath) == headBytes, "the head was written over")
        let after = try signed.verify()
        #expect(!after.problems.isEmpty, "\(coverUp) then \(appends) append(s) verifies clean: covered up")
        // `credit verify`'s way: the data directory as it is, nothing opened.
        let asTheCommandDoes = try LedgerVerifier.verify(
            directory: signed.fixture.directory, requiringHeadOf: signed.device, receiptCheck: nil)
        #expect(!asTheCommandDoes.problems.isEmpty, "\(coverUp) then \(appends) append(s): covered up")
        if coverUp == .breakTheHead {
            #expect(asTheCommandDoes.problems.map(\.kind) == [.headInvalid], "\(asTheCommandDoes.problems)")
        }
        // A fresh open of the tampered ledger still opens and still does not repair anything.
        #expect(try signed.fixture.openSigned().balance == reopened.balance)
        #expect(FileManager.default.contents(atPath: headPath) == headBytes)
    }

    @Test func aHeadLeftBehindByAnInterruptedWriteCatchesUpAndVerifiesClean() throws {
        let signed = try SignedLedger()
        let head = try #require(try SignedHead.read(in: signed.fixture.directory, device: signed.device))
        try signed.ledger.append(chargeDraft("after", pence: 1))
        try signed.ledger.append(chargeDraft("after-2", pence: 1))
        try head.write(in: signed.fixture.directory)
        let reopened = try signed.fixture.openSigned()
        #expect(reopened.notices.isEmpty, "\(reopened.notices)")
        #expect(try SignedHead.read(in: signed.fixture.directory, device: signed.device)?.sequence == 22)
        try reopened.append(chargeDraft("after-3", pence: 1))
        #expect(try SignedHead.read(in: signed.fixture.directory, device: signed.device)?.sequence == 23)
        let report = try signed.verify()
        #expect(report.problems == [] && report.notes == [])
    }

    @Test func aHeadBehindThatTheFileNoLongerHoldsIsReported() throws {
        let signed = try SignedLedger(entries: 10)
        let head = try #require(try SignedHead.read(in: signed.fixture.directory, device: signed.device))
        // #10 (the head's) cut off, then #10 and #11 written again with the key: the head is behind, and wrong.
        try signed.write(Array(try signed.lines().dropLast()))
        let copy = try signed.fixture.openSigned()
        try copy.append(chargeDraft("again-1", pence: 1))
        try copy.append(chargeDraft("again-2", pence: 1))
        try head.write(in: signed.fixture.directory)
        #expect(found(try signed.verify()) == ["changed@11"])
        #expect(try signed.verify().problems.first?.detail.contains("no longer holds") == true)
    }

    @Test func verifyingWithAnotherKeyNamesAnotherAccountsLedger() throws {
        let signed = try SignedLedger(entries: 5)
        let verifier = LedgerVerifier(macKey: [UInt8](repeating: 7, count: 32), headPublicKey: nil, receiptCheck: nil)
        let report = try verifier.verify(files: [signed.path], heads: [:])
        #expect(report.problems.map(\.kind) == [.otherAccount], "\(report.problems)")
        #expect(report.problems.first?.line == nil)
        #expect(report.problems.first?.detail.contains("another account's ledger") == true)
        #expect(report.entriesChecked == 5)
    }

    @Test func verifyingAFileThatIsNoLedgerSaysSo() throws {
        let signed = try SignedLedger(entries: 2)
        let path = signed.fixture.directory + "/notes.txt"
        try Data("a shopping list\nmilk\n".utf8).write(to: URL(fileURLWithPath: path))
        let report = try signed.verify(files: [path])
        #expect(report.problems.map(\.kind) == [.notALedger], "\(report.problems)")
        #expect(report.problems.first?.detail.contains("not a ledger file") == true)
    }

    // MARK: receipts

    @Test func topUpsNeedAReceiptThatVerifies() throws {
        let signed = try SignedLedger(entries: 3)
        try signed.ledger.append(
            EntryDraft(
                id: "topup-simulated-SIM-1", kind: .topup, amount: MicroCredits(5_000_000),
                text: "Top-up (simulated, no money taken)", reference: "SIM-1",
                product: "ai.voicedebrief.app.credit.500"))
        try signed.ledger.append(
            EntryDraft(
                id: "topup-mockstore-1", kind: .topup, amount: MicroCredits(5_000_000), reference: "1",
                product: "ai.voicedebrief.app.credit.500", receipt: "good"))
        try signed.ledger.append(
            EntryDraft(
                id: "topup-mockstore-2", kind: .topup, amount: MicroCredits(5_000_000), reference: "2",
                product: "ai.voicedebrief.app.credit.500", receipt: "forged"))
        try signed.ledger.append(
            EntryDraft(
                id: "topup-mockstore-3", kind: .topup, amount: MicroCredits(5_000_000), reference: "3",
                product: "ai.voicedebrief.app.credit.500"))
        let report = try signed.ledger.verify(receiptCheck: {
            $0.receipt == "good" ? nil : "the signature does not verify"
        })
        #expect(found(report) == ["receipt-invalid@6", "receipt-invalid@7"])
        #expect(report.receiptsChecked == 2)
        #expect(report.simulatedTopUps == 1)
        // Without a way to check them, receipts cannot be trusted either.
        let unchecked = try signed.ledger.verify(receiptCheck: nil)
        #expect(found(unchecked) == ["receipt-invalid@5", "receipt-invalid@6", "receipt-invalid@7"])
    }
}
