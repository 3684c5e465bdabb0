import CreditLedger
import Foundation
import Testing

@Suite struct LedgerTests {
    @Test func aNewLedgerStartsWithTheOpeningFivePounds() throws {
        let fixture = try LedgerFixture()
        let ledger = try fixture.open()
        #expect(ledger.wasCreated)
        #expect(ledger.balance == MicroCredits(5_000_000))
        #expect(ledger.balance.formatted == "£5.00")
        #expect(Ledger.defaultOpeningCredit == MicroCredits(5_000_000))
        #expect(ledger.entries.count == 1)
        let opening = try #require(ledger.entries.first)
        #expect(opening.id == EntryDraft.openingID)
        #expect(opening.id == "opening")
        #expect(opening.kind == .opening)
        #expect(opening.sequence == 1)
        #expect(opening.device == ledger.device)
        #expect(opening.time == testStart)
        #expect(opening.amount == MicroCredits(5_000_000))
        #expect(opening.balanceAfter == MicroCredits(5_000_000))
        #expect(opening.quantity == 1)
        #expect(opening.feature == nil)
        #expect(opening.mac == nil && opening.prev == nil)
        #expect(ledger.notices.isEmpty)
    }

    @Test func reopeningFindsTheSameLedgerAndWritesNothing() throws {
        let fixture = try LedgerFixture()
        let first = try fixture.open()
        try first.append(chargeDraft("c-1", pence: 5))
        let before = try readBytes(fixture.file(of: first))
        let second = try fixture.open()
        #expect(!second.wasCreated)
        #expect(second.device == first.device)
        #expect(second.balance == MicroCredits(4_950_000))
        #expect(second.entries == first.entries)
        #expect(try readBytes(fixture.file(of: first)) == before)
    }

    @Test func theDeviceIdIsMadeWithTheLedgerAndKept() throws {
        let fixture = try LedgerFixture(prefix: "phone")
        let ledger = try fixture.open()
        #expect(ledger.device == "phone-0001")
        #expect(try String(contentsOfFile: fixture.directory + "/device", encoding: .utf8) == "phone-0001\n")
        #expect(ledger.path(forDevice: ledger.device) == fixture.directory + "/ledger/phone-0001.jsonl")
        #expect(exists(fixture.directory + "/ledger/phone-0001.jsonl"))
    }

    @Test func withoutInjectedIdsTheDeviceIdIsRandom() throws {
        let one = try TemporaryDirectory()
        let two = try TemporaryDirectory()
        let a = try Ledger(directory: one.path, clock: FixedClock(testStart))
        let b = try Ledger(directory: two.path, clock: FixedClock(testStart))
        #expect(a.device != b.device)
        for device in [a.device, b.device] {
            #expect(device.count == 36)
            #expect(UUID(uuidString: device) != nil)
            #expect(device == device.lowercased())
        }
    }

    @Test func refusesToCreateWhenAskedNotTo() throws {
        let temporary = try TemporaryDirectory()
        let error = expectAnyLedgerError {
            _ = try Ledger(directory: temporary.path + "/none", clock: FixedClock(testStart), create: false)
        }
        #expect(error.map { "\($0)" }?.contains("there is no ledger") == true)
    }

    @Test func everyEntryCarriesEveryField() throws {
        let fixture = try LedgerFixture()
        let ledger = try fixture.open()
        fixture.clock.set(day(1))
        let outcome = try ledger.append(
            chargeDraft("c-1", pence: 3, feature: "saveToVault", subject: "note-7", quantity: 3))
        guard case .appended(let written) = outcome else {
            Issue.record("expected appended, got \(outcome)")
            return
        }
        let expected = LedgerEntry(
            id: "c-1", device: ledger.device, sequence: 2, time: day(1), kind: .charge, feature: "saveToVault",
            subject: "note-7", quantity: 3, amount: MicroCredits(-30_000), balanceAfter: MicroCredits(4_970_000))
        #expect(written == expected)
        // Read back from the file by a new instance: the same, field for field.
        let reread = try fixture.open()
        #expect(reread.entry(id: "c-1") == expected)
        #expect(reread.lastEntry(of: ledger.device) == expected)
    }

    @Test func theFileIsAppendOnlyJSONLines() throws {
        let fixture = try LedgerFixture(prefix: "dev", step: 0)
        let ledger = try fixture.open()
        try ledger.append(chargeDraft("c-1", pence: 5, subject: "n1"))
        let text = String(decoding: try readBytes(fixture.file(of: ledger)), as: UTF8.self)
        #expect(
            text == """
                {"id":"opening","device":"dev-0001","seq":1,"time":"2026-11-29T12:00:00.000Z","kind":"opening","quantity":1,"amount":5000000,"balanceAfter":5000000,"text":"Starting credit"}
                {"id":"c-1","device":"dev-0001","seq":2,"time":"2026-11-29T12:00:00.000Z","kind":"charge","feature":"debrief","subject":"n1","quantity":1,"amount":-50000,"balanceAfter":4950000}

                """)
        #expect(try fileMode(fixture.file(of: ledger)) & 0o077 == 0, "the ledger is the owner's only")
        #expect(exists(fixture.directory + "/ledger/.lock"))
        // Appending again adds to the end and changes nothing before it.
        let before = try readBytes(fixture.file(of: ledger))
        try ledger.append(chargeDraft("c-2", pence: 1))
        let after = try readBytes(fixture.file(of: ledger))
        #expect(Array(after.prefix(before.count)) == before)
        #expect(after.count > before.count && after.last == 0x0A)
    }

    @Test func balanceIsTheSumOverDistinctIds() throws {
        let fixture = try LedgerFixture()
        let ledger = try fixture.open()
        try ledger.append(chargeDraft("c-1", pence: 5))
        try ledger.append(chargeDraft("c-2", pence: 3))
        // A second device's file holding the same opening and the same charge c-1 (as after a sync), and one of its own.
        let other = """
            {"id":"opening","device":"tablet","seq":1,"time":"2026-11-29T12:00:00.000Z","kind":"opening","quantity":1,"amount":5000000,"balanceAfter":5000000,"text":"Starting credit"}
            {"id":"c-1","device":"tablet","seq":2,"time":"2026-11-29T12:00:01.000Z","kind":"charge","feature":"debrief","quantity":1,"amount":-50000,"balanceAfter":4950000}
            {"id":"t-1","device":"tablet","seq":3,"time":"2026-11-29T12:00:02.000Z","kind":"charge","feature":"send","quantity":1,"amount":-10000,"balanceAfter":4940000}

            """
        try writeBytes(Array(other.utf8), to: fixture.directory + "/ledger/tablet.jsonl")
        try ledger.refresh()
        #expect(ledger.entries.count == 6)
        #expect(ledger.distinctEntries.map(\.id).sorted() == ["c-1", "c-2", "opening", "t-1"])
        #expect(ledger.balance == MicroCredits(5_000_000 - 50_000 - 30_000 - 10_000))
        let sum = try MicroCredits.sum(ledger.distinctEntries.map(\.amount))
        #expect(ledger.balance == sum)
        #expect(ledger.notices.isEmpty)
        // Reading the files in another instance gives the same, whatever the order read.
        #expect(try fixture.open().balance == ledger.balance)
    }

    @Test func appendingTheSameContentAgainIsANoOpThatSaysSo() throws {
        let fixture = try LedgerFixture()
        let ledger = try fixture.open()
        let first = try ledger.append(chargeDraft("c-1", pence: 5, subject: "n1"))
        guard case .appended(let entry) = first else {
            Issue.record("expected appended, got \(first)")
            return
        }
        let before = try readBytes(fixture.file(of: ledger))
        let again = try ledger.append(chargeDraft("c-1", pence: 5, subject: "n1"))
        #expect(again == .alreadyRecorded(entry))
        #expect(again.entry == entry)
        #expect(try readBytes(fixture.file(of: ledger)) == before)
        #expect(ledger.balance == MicroCredits(4_950_000))
        // A second instance replaying it says the same, and writes nothing either.
        #expect(try fixture.open().append(chargeDraft("c-1", pence: 5, subject: "n1")) == .alreadyRecorded(entry))
        #expect(try readBytes(fixture.file(of: ledger)) == before)
    }

    @Test(arguments: [
        ("amount", chargeDraft("c-1", pence: 6, subject: "n1")),
        ("subject", chargeDraft("c-1", pence: 5, subject: "n2")),
        ("feature", chargeDraft("c-1", pence: 5, feature: "send", subject: "n1")),
        ("quantity", chargeDraft("c-1", pence: 5, subject: "n1", quantity: 2)),
        (
            "kind",
            EntryDraft(id: "c-1", kind: .refund, feature: "debrief", subject: "n1", amount: MicroCredits(-50_000))
        ),
    ])
    func appendingOtherContentUnderAnIdIsAConflictAndWritesNothing(_ what: String, _ draft: EntryDraft) throws {
        let fixture = try LedgerFixture()
        let ledger = try fixture.open()
        try ledger.append(chargeDraft("c-1", pence: 5, subject: "n1"))
        let before = try readBytes(fixture.file(of: ledger))
        let error = expectAnyLedgerError { try ledger.append(draft) }
        guard case .conflict(let id, _, _) = error else {
            Issue.record("a different \(what) should be a conflict, got \(String(describing: error))")
            return
        }
        #expect(id == "c-1")
        #expect(error?.description.contains("nothing was written") == true)
        #expect(try readBytes(fixture.file(of: ledger)) == before)
        #expect(ledger.balance == MicroCredits(4_950_000))
    }

    @Test func batchAppendWritesAllInOrder() throws {
        let fixture = try LedgerFixture()
        let ledger = try fixture.open()
        let outcomes = try ledger.appendBatch([
            chargeDraft("b-1", pence: 1), chargeDraft("b-2", pence: 2), chargeDraft("b-3", pence: 3),
        ])
        #expect(outcomes.count == 3)
        #expect(outcomes.map(\.entry.sequence) == [2, 3, 4])
        #expect(outcomes.map(\.entry.balanceAfter.rawValue) == [4_990_000, 4_970_000, 4_940_000])
        #expect(outcomes.allSatisfy { if case .appended = $0 { true } else { false } })
        #expect(Set(outcomes.map(\.entry.time)).count == 1, "one batch, one moment")
        #expect(try lines(of: fixture.file(of: ledger)).count == 4)
        #expect(ledger.balance == MicroCredits(4_940_000))
        #expect(try fixture.open().balance == MicroCredits(4_940_000))
    }

    @Test func batchAppendMixesNewAndAlreadyRecorded() throws {
        let fixture = try LedgerFixture()
        let ledger = try fixture.open()
        try ledger.append(chargeDraft("b-1", pence: 1))
        let outcomes = try ledger.appendBatch([
            chargeDraft("b-1", pence: 1), chargeDraft("b-2", pence: 2), chargeDraft("b-2", pence: 2),
        ])
        #expect(
            outcomes.map { if case .appended = $0 { "appended" } else { "already" } } == [
                "already", "appended", "already",
            ])
        #expect(try lines(of: fixture.file(of: ledger)).count == 3)
        #expect(ledger.balance == MicroCredits(4_970_000))
    }

    @Test(arguments: [
        ("with the file", [chargeDraft("b-2", pence: 2), chargeDraft("b-1", pence: 9)]),
        (
            "within the batch",
            [chargeDraft("b-2", pence: 2), chargeDraft("b-3", pence: 3), chargeDraft("b-2", pence: 4)]
        ),
    ])
    func aConflictAnywhereInABatchWritesNothing(_ where_: String, _ drafts: [EntryDraft]) throws {
        let fixture = try LedgerFixture()
        let ledger = try fixture.open()
        try ledger.append(chargeDraft("b-1", pence: 1))
        let before = try readBytes(fixture.file(of: ledger))
        let error = expectAnyLedgerError { try ledger.appendBatch(drafts) }
        guard case .conflict = error else {
            Issue.record("a conflict \(where_) should throw conflict, got \(String(describing: error))")
            return
        }
        #expect(try readBytes(fixture.file(of: ledger)) == before)
        #expect(ledger.balance == MicroCredits(4_990_000))
        #expect(ledger.entries.count == 2)
    }

    // MARK: declining

    @Test(arguments: [
        (DeclineReason.notUsable, "not-usable", nil as String?),
        (.notNeeded, "not-needed", nil),
        (.test, "test", nil),
        (.other("it came out in the wrong language"), "other", "it came out in the wrong language"),
    ])
    func decliningWritesARefundAndKeepsTheCharge(_ reason: DeclineReason, _ key: String, _ text: String?) throws {
        let fixture = try LedgerFixture()
        let ledger = try fixture.open()
        let charge = try ledger.append(chargeDraft("c-1", pence: 5, subject: "note-1")).entry
        #expect(ledger.balance == MicroCredits(4_950_000))
        let linesBefore = try lines(of: fixture.file(of: ledger))
        let refund = try ledger.decline("c-1", reason: reason)
        #expect(refund.id == EntryDraft.refundID(forCharge: "c-1"))
        #expect(refund.id == "refund-c-1")
        #expect(refund.kind == .refund)
        #expect(refund.amount == MicroCredits(50_000))
        #expect(refund.refersTo == "c-1")
        #expect(refund.feature == "debrief")
        #expect(refund.subject == "note-1")
        #expect(refund.reason == key)
        #expect(refund.text == text)
        #expect(refund.sequence == 3)
        #expect(ledger.balance == MicroCredits(5_000_000), "the balance is restored")
        #expect(ledger.entry(id: "c-1") == charge, "the charge stays")
        let linesAfter = try lines(of: fixture.file(of: ledger))
        #expect(linesAfter.count == linesBefore.count + 1)
        #expect(Array(linesAfter.prefix(linesBefore.count)) == linesBefore, "nothing before is changed")
        let reread = try fixture.open()
        #expect(reread.entry(id: "refund-c-1") == refund)
        #expect(reread.balance == MicroCredits(5_000_000))
    }

    @Test func decliningTwiceIsAnErrorAndWritesNothing() throws {
        let fixture = try LedgerFixture()
        let ledger = try fixture.open()
        try ledger.append(chargeDraft("c-1", pence: 5))
        try ledger.decline("c-1", reason: .test)
        let before = try readBytes(fixture.file(of: ledger))
        let error = expectAnyLedgerError { try ledger.decline("c-1", reason: .notNeeded) }
        guard case .cannotDecline(let id, let why) = error else {
            Issue.record("expected cannotDecline, got \(String(describing: error))")
            return
        }
        #expect(id == "c-1")
        #expect(why.contains("already declined"))
        #expect(try readBytes(fixture.file(of: ledger)) == before)
        #expect(ledger.balance == MicroCredits(5_000_000))
        // Another instance (another process) is refused the same way.
        _ = expectAnyLedgerError { try fixture.open().decline("c-1", reason: .test) }
        #expect(try readBytes(fixture.file(of: ledger)) == before)
    }

    @Test(arguments: ["opening", "refund-c-1", "t-1"])
    func decliningSomethingThatIsNotAChargeIsAnErrorAndWritesNothing(_ id: String) throws {
        let fixture = try LedgerFixture()
        let ledger = try fixture.open()
        try ledger.append(chargeDraft("c-1", pence: 5))
        try ledger.decline("c-1", reason: .test)
        try ledger.append(EntryDraft(id: "t-1", kind: .topup, amount: MicroCredits(5_000_000), reference: "T1"))
        let before = try readBytes(fixture.file(of: ledger))
        let balance = ledger.balance
        let error = expectAnyLedgerError { try ledger.decline(id, reason: .notUsable) }
        guard case .cannotDecline(let refused, let why) = error else {
            Issue.record("expected cannotDecline, got \(String(describing: error))")
            return
        }
        #expect(refused == id)
        #expect(why.contains("only a charge can be declined"))
        #expect(try readBytes(fixture.file(of: ledger)) == before)
        #expect(ledger.balance == balance)
    }

    @Test func decliningAnUnknownIdIsAnErrorAndWritesNothing() throws {
        let fixture = try LedgerFixture()
        let ledger = try fixture.open()
        let before = try readBytes(fixture.file(of: ledger))
        expectLedgerError(.unknownEntry("no-such-id")) { try ledger.decline("no-such-id", reason: .test) }
        #expect(try readBytes(fixture.file(of: ledger)) == before)
    }

    @Test(arguments: [
        ("not-usable", nil as String?, DeclineReason.notUsable),
        ("not-needed", nil, .notNeeded),
        ("test", nil, .test),
        ("other", "too slow", .other("too slow")),
    ])
    func readsDeclineReasons(_ key: String, _ text: String?, _ expected: DeclineReason) throws {
        let reason = try DeclineReason(key: key, text: text)
        #expect(reason == expected)
        #expect(reason.key == key)
        #expect(reason.text == text)
    }

    @Test(arguments: [
        ("other", nil as String?), ("other", ""), ("other", "   \t"), ("bored", nil), ("", nil), ("Test", nil),
    ])
    func anotherReasonNeedsTheUsersWords(_ key: String, _ text: String?) {
        let error = expectAnyLedgerError { _ = try DeclineReason(key: key, text: text) }
        guard case .invalid(let message) = error else {
            Issue.record("expected invalid, got \(String(describing: error))")
            return
        }
        #expect(message.contains(key == "other" ? "needs the user's words" : "unknown reason"))
    }

    // MARK: below zero

    @Test func belowZeroNothingIsBlocked() throws {
        let fixture = try LedgerFixture()
        let ledger = try fixture.open()
        try ledger.append(chargeDraft("big", pence: 100_000))
        #expect(ledger.balance == MicroCredits(-995_000_000))
        let charged = try ledger.append(chargeDraft("c-1", pence: 5))
        #expect(charged.entry.balanceAfter == MicroCredits(-995_050_000))
        #expect(ledger.balance == MicroCredits(-995_050_000))
        #expect(ledger.balance.formatted == "-£995.05")
    }

    @Test func aLedgerFarBelowZeroStillCharges() throws {
        let fixture = try LedgerFixture()
        let ledger = try fixture.open(openingCredit: MicroCredits(Int64.min / 2))
        let meter = Meter(ledger: ledger, prices: SgitPrices(), ids: SequentialIDs(prefix: "c"))
        for _ in 0..<3 {
            let outcome = try meter.charge(ChargeRequest("commit"))
            #expect(outcome.entry != nil)
        }
        #expect(ledger.balance == MicroCredits(Int64.min / 2 - 60_000))
    }

    @Test func aChargeThatWouldOverflowTheBalanceIsRefusedNotWrapped() throws {
        let fixture = try LedgerFixture()
        let ledger = try fixture.open(openingCredit: MicroCredits(Int64.min + 5))
        let before = try readBytes(fixture.file(of: ledger))
        let error = expectAnyLedgerError { try ledger.append(chargeDraft("c-1", pence: 1)) }
        guard case .overflow = error else {
            Issue.record("expected overflow, got \(String(describing: error))")
            return
        }
        #expect(try readBytes(fixture.file(of: ledger)) == before)
    }

    // MARK: two instances

    @Test func aSecondInstanceSeesTheFirstOnesAppends() throws {
        let fixture = try LedgerFixture()
        let first = try fixture.open()
        let second = try fixture.open()
        try first.append(chargeDraft("c-1", pence: 5))
        #expect(second.balance == MicroCredits(5_000_000), "not yet refreshed")
        try second.refresh()
        #expect(second.balance == MicroCredits(4_950_000))
        #expect(second.entry(id: "c-1") != nil)
        // The second appends after the first's entry, never over it.
        let next = try second.append(chargeDraft("c-2", pence: 1)).entry
        #expect(next.sequence == 3)
        #expect(next.balanceAfter == MicroCredits(4_940_000))
        // Appending refreshes first: the first instance continues the sequence.
        let third = try first.append(chargeDraft("c-3", pence: 1)).entry
        #expect(third.sequence == 4)
        #expect(first.balance == MicroCredits(4_930_000))
        // The second instance can decline the first one's charge, and the first sees it.
        try second.decline("c-3", reason: .test)
        try first.refresh()
        #expect(first.balance == MicroCredits(4_940_000))
        let sequences = try fixture.open().entries.map(\.sequence)
        #expect(sequences == [1, 2, 3, 4, 5])
    }
}

/// A second, made-up app's price list: the ledger knows nothing of voice notes.
struct SgitPrices: PriceList {
    let items: [PriceItem] = [
        PriceItem(key: "commit", label: "A commit", price: MicroCredits(20_000)),
        PriceItem(key: "push", label: "A push", price: MicroCredits(30_000), unit: .whenSomethingMoved),
        PriceItem(
            key: "clone", label: "A clone, per repository", price: MicroCredits(10_000), unit: .perItem(maximum: 3)),
        PriceItem(key: "blame", label: "Blaming a file", price: MicroCredits(5_000), oncePerSubjectPerSession: true),
    ]
    let neverCharged: [String: String] = ["status": "git status is never charged."]
}
