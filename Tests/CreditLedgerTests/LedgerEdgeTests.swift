import CreditLedger
import Foundation
import Signing
import Testing

@testable import LedgerEntries
@testable import LedgerSync

/// Issue 25's edges in the library: a device id is never a path, a join is all or nothing, and a changed line is
/// never used or appended after.
@Suite struct LedgerEdgeTests {
    /// `entries` as signed lines under `key`, each chained to the one before, newline included.
    private func signedLines(_ entries: [LedgerEntry], key: [UInt8]) throws -> [UInt8] {
        var previous = String(repeating: "0", count: 64)
        var bytes: [UInt8] = []
        for var entry in entries {
            entry.prev = previous
            let body = EntryCodec.body(of: entry)
            let mac = Hex.encode(try HMACSHA256.authenticationCode(for: body, key: key))
            previous = mac
            bytes += EntryCodec.line(body: body, mac: mac)
        }
        return bytes
    }

    /// A chain of two charges by `device`, signed with the account's own key: what someone holding the key (or a
    /// synced folder's other writer) can make.
    private func forgedChain(device: String, key: [UInt8]) throws -> [UInt8] {
        let entries = (1...2).map { number in
            LedgerEntry(
                id: "evil-\(number)", device: device, sequence: Int64(number), time: testStart,
                kind: .charge, feature: "send", amount: MicroCredits(-10_000), balanceAfter: .zero)
        }
        return try signedLines(entries, key: key)
    }

    @Test(arguments: ["a", "dev-0001", "d3v1c3_0001", "87c9183d-623d-479a-afcb-a91c75ea4340"])
    func deviceIDsOfTheOneForm(_ id: String) {
        #expect(DeviceID.isValid(id))
        #expect(DeviceID.problem(with: id) == nil)
    }

    @Test(arguments: [
        "", "../../../../elsewhere/victim", "a/b", "..", ".hidden", "-dash", "d\u{00E9}", "a b", "a\u{1B}[2J",
        String(repeating: "a", count: 65),
    ])
    func anythingElseIsNoDeviceID(_ id: String) {
        #expect(!DeviceID.isValid(id))
        #expect(DeviceID.problem(with: id)?.contains("is not a device id") == true)
        #expect(DeviceID.problem(with: id)?.contains("\u{1B}") != true, "control characters are escaped")
    }

    @Test func aMergedFileWhoseDeviceIsAPathIsRefusedAndNothingIsWrittenAnywhere() throws {
        let a = try LedgerFixture(prefix: "a")
        let ledger = try a.openSigned()
        let keys = try LedgerKeys.load(from: a.directory)
        let outside = a.temporary.path + "/elsewhere"
        let evil = a.temporary.path + "/evil.jsonl"
        try Data(try forgedChain(device: "../../elsewhere/victim", key: keys.macKey)).write(
            to: URL(fileURLWithPath: evil))
        let before = DirectorySnapshot.take(a.directory)
        #expect(throws: MergeRefusal.self) { try AccountSync(ledger).merge(files: [evil]) }
        #expect(!FileManager.default.fileExists(atPath: outside))
        #expect(DirectorySnapshot.take(a.directory) == before)
    }

    @Test func aJoinFromAnAccountWhoseDeviceIsAPathIsRefusedAndNothingIsWrittenAnywhere() throws {
        let a = try LedgerFixture(prefix: "a")
        _ = try a.openSigned()
        let keys = try LedgerKeys.load(from: a.directory)
        // The account's directory (a synced folder, say) gains a re-MACed file whose entries name a path.
        try Data(try forgedChain(device: "../../../elsewhere/victim", key: keys.macKey)).write(
            to: URL(fileURLWithPath: a.directory + "/ledger/zz.jsonl"))
        let b = try LedgerFixture(prefix: "b")
        #expect(throws: JoinError.self) {
            try AccountSync.join(directory: b.directory, account: a.directory, ids: b.ids)
        }
        #expect(!FileManager.default.fileExists(atPath: b.directory))
        #expect(!FileManager.default.fileExists(atPath: b.temporary.path + "/elsewhere"))
        #expect(!FileManager.default.fileExists(atPath: a.temporary.path + "/elsewhere"))
        #expect(!FileManager.default.fileExists(atPath: AccountSync.stagingPath(for: b.directory)))
    }

    @Test func aDeviceFileThatIsAPathIsRefused() throws {
        let a = try LedgerFixture(prefix: "a")
        _ = try a.openSigned()
        try Data("../../elsewhere/victim\n".utf8).write(to: URL(fileURLWithPath: a.directory + "/device"))
        #expect(throws: LedgerError.self) { try a.openSigned() }
        #expect(!FileManager.default.fileExists(atPath: a.temporary.path + "/elsewhere"))
    }

    @Test func aHeadIsNeverWrittenForADeviceIDThatIsAPath() throws {
        let a = try LedgerFixture(prefix: "a")
        let head = SignedHead(device: "../escape", sequence: 1, mac: "00", balance: 0, time: "t", signature: "")
        #expect(throws: LedgerError.self) { try head.write(in: a.directory) }
        #expect(!FileManager.default.fileExists(atPath: a.temporary.path + "/escape.json"))
    }

    @Test func aJoinStagedBesideTheDirectoryLeavesNothingBehindAndRunsAgain() throws {
        let a = try LedgerFixture(prefix: "a")
        let ledgerA = try a.openSigned()
        try ledgerA.append(chargeDraft("a-c1", pence: 3))
        let b = try LedgerFixture(prefix: "b")
        // What a join killed before its rename leaves: a staging directory beside the data directory.
        let staging = AccountSync.stagingPath(for: b.directory)
        try FileManager.default.createDirectory(atPath: staging + "/keys", withIntermediateDirectories: true)
        try Data("half".utf8).write(to: URL(fileURLWithPath: staging + "/keys/ledger.key"))
        let report = try AccountSync.join(directory: b.directory, account: a.directory, ids: b.ids)
        #expect(report.balance == ledgerA.balance)
        #expect(!FileManager.default.fileExists(atPath: staging))
        let ledgerB = try b.openSigned()
        #expect(ledgerB.balance == ledgerA.balance)
        #expect(ledgerB.entries.filter { $0.kind == .opening }.count == 1)
    }

    @Test func aJoinOntoADirectoryThatHoldsSomethingIsRefusedAndLeavesItAsItWas() throws {
        let a = try LedgerFixture(prefix: "a")
        _ = try a.openSigned()
        let b = try LedgerFixture(prefix: "b")
        try FileManager.default.createDirectory(atPath: b.directory, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: b.directory + "/notes.txt"))
        let before = DirectorySnapshot.take(b.directory)
        #expect(throws: JoinError.notEmpty(directory: b.directory)) {
            try AccountSync.join(directory: b.directory, account: a.directory, ids: b.ids)
        }
        #expect(DirectorySnapshot.take(b.directory) == before)
        #expect(!FileManager.default.fileExists(atPath: AccountSync.stagingPath(for: b.directory)))
    }

    @Test func aJoinTakesTheFilesTheAppNames() throws {
        let a = try LedgerFixture(prefix: "a")
        _ = try a.openSigned()
        try Data("{\"store\":\"mockstore\"}\n".utf8).write(to: URL(fileURLWithPath: a.directory + "/store.json"))
        try FileManager.default.createDirectory(atPath: a.directory + "/store-roots", withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: a.directory + "/store-roots/old.der"))
        let b = try LedgerFixture(prefix: "b")
        try AccountSync.join(
            directory: b.directory, account: a.directory, carrying: ["store.json", "store-roots", "store-secret"],
            ids: b.ids)
        #expect(try readBytes(b.directory + "/store.json") == (try readBytes(a.directory + "/store.json")))
        #expect(try readBytes(b.directory + "/store-roots/old.der") == [1, 2, 3])
        #expect(!FileManager.default.fileExists(atPath: b.directory + "/store-secret"))
    }

    @Test func aChangedLineStopsTheOpenAndNothingIsAppendedAfterIt() throws {
        let a = try LedgerFixture(prefix: "a")
        let ledger = try a.openSigned()
        for index in 1...4 { try ledger.append(chargeDraft("a-c\(index)", pence: 5)) }
        let path = a.file(of: ledger)
        var lines = try CreditLedgerTests.lines(of: path)
        let text = String(decoding: lines[2], as: UTF8.self)
        lines[2] = Array(text.replacing("\"amount\":-50000", with: "\"amount\":-10000").utf8)
        #expect(lines[2] != Array(text.utf8))
        try writeLines(lines, to: path)
        let before = try readBytes(path)
        do {
            _ = try a.openSigned()
            Issue.record("a changed line was used")
        } catch LedgerError.brokenChain(let file, let line, _) {
            #expect(file == path && line == 3)
        }
        #expect(try readBytes(path) == before, "nothing appended after it")
        #expect(LedgerCheckpoint.balance(directory: a.directory) == nil, "no checkpoint vouches for it")
    }

    @Test func aLineTakenOutOfTheMiddleStopsTheOpen() throws {
        let a = try LedgerFixture(prefix: "a")
        let ledger = try a.openSigned()
        for index in 1...4 { try ledger.append(chargeDraft("a-c\(index)", pence: 5)) }
        let path = a.file(of: ledger)
        var lines = try CreditLedgerTests.lines(of: path)
        lines.remove(at: 2)
        try writeLines(lines, to: path)
        #expect(
            throws: LedgerError.brokenChain(file: path, line: 3, reason: "its sequence is #4, not the one after #2")
        ) {
            try a.openSigned()
        }
    }

    @Test func aChangedLineIsFoundByTheParallelReadToo() throws {
        let saved = ParallelLines.minimumPartBytes
        ParallelLines.minimumPartBytes = 512
        defer { ParallelLines.minimumPartBytes = saved }
        let a = try LedgerFixture(prefix: "a")
        let ledger = try a.openSigned()
        for index in 1...40 { try ledger.append(chargeDraft("a-c\(index)", pence: 5)) }
        let path = a.file(of: ledger)
        var lines = try CreditLedgerTests.lines(of: path)
        let text = String(decoding: lines[33], as: UTF8.self)
        lines[33] = Array(text.replacing("\"amount\":-50000", with: "\"amount\":-40000").utf8)
        try writeLines(lines, to: path)
        do {
            _ = try a.openSigned()
            Issue.record("a changed line was used")
        } catch LedgerError.brokenChain(_, let line, _) {
            #expect(line == 34)
        }
    }
}
