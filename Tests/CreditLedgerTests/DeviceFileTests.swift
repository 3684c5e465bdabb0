import CreditLedger
import DurableFiles
import Foundation
import Testing

@testable import LedgerEntries

/// A device file on its own: reading from where the last read stopped, a torn tail handed back (not yet set aside),
/// corruption named by line, and the writer setting a tail aside and appending durably.
@Suite struct DeviceFileTests {
    private static func line(_ sequence: Int64) -> [UInt8] {
        let entry = LedgerEntry(
            id: "c\(sequence)", device: "dev", sequence: sequence, time: testStart, kind: .charge, feature: "send",
            amount: MicroCredits(-10_000), balanceAfter: .zero)
        return EntryCodec.line(body: EntryCodec.body(of: entry), mac: nil)
    }

    @Test func readsOnlyWhatIsNewAndHandsBackATornTail() throws {
        let temporary = try TemporaryDirectory()
        let path = temporary.file("dev.jsonl")
        try writeBytes(Self.line(1) + Self.line(2), to: path)
        var file = DeviceFile(path: path)
        var entries: [LedgerEntry] = []
        let first = try #require(try file.readNewLines(into: &entries, owner: "dev"))
        #expect(first.first == 0 && first.tornTail == nil && entries.map(\.sequence) == [1, 2])
        #expect(file.size == 0, "reading changes nothing until the read is taken in")
        #expect(file.take(first, of: entries) == 1)
        #expect(file.lines == 2 && file.lastSequence == 2 && file.isSigned == false && file.lastMAC == nil)
        #expect(try file.readNewLines(into: &entries, owner: "dev") == nil, "nothing new")

        let torn = Array(Self.line(4).prefix(30))
        try appendBytes(Self.line(3) + torn, to: path)
        let second = try #require(try file.readNewLines(into: &entries, owner: "dev"))
        #expect(second.first == 2 && entries.map(\.sequence) == [1, 2, 3])
        #expect(second.tornTail == torn)
        #expect(second.consumed == Int64(Self.line(1).count * 3))
        #expect(file.take(second, of: entries) == 3)
        #expect(file.size == second.consumed && file.lines == 3 && file.lastSequence == 3)
    }

    @Test func aBadLineWithEntriesAfterItIsCorruption() throws {
        let temporary = try TemporaryDirectory()
        let path = temporary.file("dev.jsonl")
        try writeBytes(Self.line(1) + Array("{not json}\n".utf8) + Self.line(3), to: path)
        var entries: [LedgerEntry] = []
        let error = #expect(throws: LedgerError.self) {
            _ = try DeviceFile(path: path).readNewLines(into: &entries, owner: "dev")
        }
        guard case .corruptLine(let file, let line, _)? = error else {
            Issue.record("not a corrupt line: \(String(describing: error))")
            return
        }
        #expect(file == path && line == 2)
    }

    @Test func theWriterAppendsDurablyAndSetsATornTailAside() throws {
        let temporary = try TemporaryDirectory()
        let ledger = temporary.file("ledger")
        try FileManager.default.createDirectory(atPath: ledger, withIntermediateDirectories: true)
        let writer = DeviceFileWriter(fileSystem: SystemFileSystem(), ledgerDirectory: ledger)
        let path = ledger + "/dev.jsonl"
        var lost = false
        try writer.appendDurably(Self.line(1), to: path, creating: true) { lost = true }
        try writer.appendDurably(Self.line(2), to: path, creating: false) { lost = true }
        #expect(throws: LedgerError.self) {
            try writer.appendDurably(Self.line(1), to: path, creating: true) { lost = true }
        }
        #expect(!lost)
        #expect(try readBytes(path) == Self.line(1) + Self.line(2))

        try appendBytes(Array("{\"id\":".utf8), to: path)
        let notice = try writer.setAsideTornTail(
            Array("{\"id\":".utf8), of: path, keeping: Int64(Self.line(1).count * 2), owner: "dev",
            in: temporary.file("torn"), milliseconds: 42)
        let saved = temporary.file("torn") + "/dev-42.tail"
        #expect(notice == .tornTailMovedAside(file: path, bytes: 6, savedTo: saved))
        #expect(try readBytes(saved) == Array("{\"id\":".utf8))
        #expect(try readBytes(path) == Self.line(1) + Self.line(2))
    }
}
