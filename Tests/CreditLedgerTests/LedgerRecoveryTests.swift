import CreditLedger
import Foundation
import Testing

/// Loading: a torn last line is set aside and reported; a bad line in the middle is an error and the file is left
/// byte for byte as it was.
@Suite struct LedgerRecoveryTests {
    /// A ledger of an opening and two charges, closed; returns the fixture and its file.
    private func threeEntryLedger(signed: Bool = false) throws -> (LedgerFixture, String) {
        let fixture = try LedgerFixture()
        let ledger = signed ? try fixture.openSigned() : try fixture.open()
        try ledger.append(chargeDraft("c-1", pence: 5))
        try ledger.append(chargeDraft("c-2", pence: 3))
        return (fixture, fixture.file(of: ledger))
    }

    static let tails: [(String, [UInt8])] = [
        ("half a line, no newline", Array(#"{"id":"c-3","device":"dev-0001","seq":4,"time":"2026-11-29T12:0"#.utf8)),
        (
            "a whole line without its newline",
            Array(
                #"{"id":"c-3","device":"dev-0001","seq":4,"time":"2026-11-29T12:00:09.000Z","kind":"charge","feature":"send","quantity":1,"amount":-10000,"balanceAfter":4910000}"#
                    .utf8)
        ),
        ("garbage", Array("garbage \u{1}\u{2} not json".utf8)),
        ("a zero run", [UInt8](repeating: 0, count: 4096)),
        ("a zero run ending in a newline", [UInt8](repeating: 0, count: 100) + [0x0A]),
        ("garbage ending in a newline", Array("{\"id\":\n".utf8)),
        ("a single byte", [0x7B]),
    ]

    @Test(arguments: tails)
    func aTornTailIsMovedAsideAndReported(_ name: String, _ tail: [UInt8]) throws {
        let (fixture, path) = try threeEntryLedger()
        let whole = try readBytes(path)
        try appendBytes(tail, to: path)
        fixture.clock.set(day(2))
        let ledger = try fixture.open()
        // Every complete entry kept, the file cut back to the last whole line.
        #expect(ledger.entries.map(\.id) == ["opening", "c-1", "c-2"])
        #expect(ledger.balance == MicroCredits(4_920_000))
        #expect(try readBytes(path) == whole)
        // The tail is kept, byte for byte, in torn/, and the notice says where.
        let saved = listDirectory(fixture.directory + "/torn")
        #expect(saved.count == 1)
        let savedPath = fixture.directory + "/torn/" + (saved.first ?? "")
        #expect(try readBytes(savedPath) == tail)
        #expect(ledger.notices == [.tornTailMovedAside(file: path, bytes: tail.count, savedTo: savedPath)])
        let notice = try #require(ledger.notices.first).description
        #expect(notice.contains("moved aside") && notice.contains("every complete entry is kept"))
        // The next append continues the chain after the last whole line.
        let next = try ledger.append(chargeDraft("c-3", pence: 1)).entry
        #expect(next.sequence == 4)
        #expect(try fixture.open().entries.map(\.sequence) == [1, 2, 3, 4])
        #expect(try fixture.open().notices.isEmpty, "reported once, when it was set aside")
    }

    @Test func aTornTailOfASignedLedgerLeavesAChainThatVerifies() throws {
        let (fixture, path) = try threeEntryLedger(signed: true)
        let whole = try readBytes(path)
        try appendBytes(Array(try lines(of: path)[2].prefix(50)), to: path)
        let ledger = try fixture.openSigned()
        #expect(try readBytes(path) == whole)
        #expect(ledger.notices.count == 1)
        try ledger.append(chargeDraft("c-3", pence: 1))
        let report = try ledger.verify(receiptCheck: nil)
        #expect(report.problems == [])
        #expect(report.entriesChecked == 4)
    }

    @Test func aTornTailSeenByARunningInstanceIsSetAsideOnItsNextAppend() throws {
        let (fixture, path) = try threeEntryLedger()
        let ledger = try fixture.open()
        try appendBytes(Array("{\"id\":\"half".utf8), to: path)
        let next = try ledger.append(chargeDraft("c-3", pence: 1)).entry
        #expect(next.sequence == 4)
        #expect(ledger.notices.count == 1)
        #expect(try fixture.open().entries.map(\.id) == ["opening", "c-1", "c-2", "c-3"])
    }

    static let badLines: [(String, [UInt8])] = [
        ("garbage", Array("garbage".utf8)),
        ("empty", []),
        ("zeros", [UInt8](repeating: 0, count: 40)),
        ("half a line", Array(#"{"id":"c-1","device""#.utf8)),
        (
            "a float amount",
            Array(
                #"{"id":"c-1","device":"dev-0001","seq":2,"time":"2026-11-29T12:00:01.000Z","kind":"charge","feature":"debrief","quantity":1,"amount":-50000.0,"balanceAfter":4950000}"#
                    .utf8)
        ),
    ]

    @Test(arguments: badLines, [1, 2])
    func aBadMiddleLineIsAnErrorNamingItAndTheFileIsUntouched(_ badLine: (String, [UInt8]), _ lineNumber: Int) throws {
        let (name, bad) = badLine
        let (fixture, path) = try threeEntryLedger()
        var fileLines = try lines(of: path)
        fileLines[lineNumber - 1] = bad
        try writeLines(fileLines, to: path)
        let damaged = try readBytes(path)
        for _ in 0..<2 {
            let error = expectAnyLedgerError { _ = try fixture.open() }
            guard case .corruptLine(let file, let line, let reason) = error else {
                Issue.record("\(name) on line \(lineNumber): expected corruptLine, got \(String(describing: error))")
                return
            }
            #expect(file == path)
            #expect(line == lineNumber)
            #expect(!reason.isEmpty)
            #expect(error?.description.contains("line \(lineNumber)") == true)
            #expect(error?.description.contains("left untouched") == true)
            #expect(try readBytes(path) == damaged, "byte for byte unchanged")
            #expect(!exists(fixture.directory + "/torn"), "nothing was set aside")
        }
    }

    @Test func aBadMiddleLineStopsARunningInstanceToo() throws {
        let (fixture, path) = try threeEntryLedger()
        let ledger = try fixture.open()
        try ledger.append(chargeDraft("c-3", pence: 1))
        // Another process appends a bad line then a good one.
        try appendBytes(Array("not an entry\n".utf8) + (try lines(of: path)[3]) + [0x0A], to: path)
        let damaged = try readBytes(path)
        let error = expectAnyLedgerError { try ledger.append(chargeDraft("c-4", pence: 1)) }
        guard case .corruptLine(_, let line, _) = error else {
            Issue.record("expected corruptLine, got \(String(describing: error))")
            return
        }
        #expect(line == 5)
        #expect(try readBytes(path) == damaged)
    }

    @Test func aFileThatShrankIsReadAgainFromTheStart() throws {
        let (fixture, path) = try threeEntryLedger()
        let ledger = try fixture.open()
        let twoLines = try lines(of: path).prefix(2)
        try ledger.append(chargeDraft("c-3", pence: 1))
        try writeLines(Array(twoLines), to: path)
        try ledger.refresh()
        #expect(ledger.entries.map(\.id) == ["opening", "c-1"])
        #expect(ledger.balance == MicroCredits(4_950_000))
        let next = try ledger.append(chargeDraft("c-4", pence: 1)).entry
        #expect(next.sequence == 3)
        #expect(try fixture.open().entries.map(\.id) == ["opening", "c-1", "c-4"])
    }
}
