import CreditLedger
import Foundation
import Testing

@testable import LedgerEntries
@testable import LedgerSync

/// The counter after another process changed the ledger: the checkpoint taken forward by the lines appended
/// (each checked as a full load checks it), and a file changed any other way read whole and said.
@Suite struct CheckpointForwardTests {
    /// Device A (signed, three charges, its checkpoint written) and device B joined from it, with its own ledger.
    private struct Account {
        let a: LedgerFixture
        let b: LedgerFixture
        let ledgerB: Ledger

        init() throws {
            a = try LedgerFixture(prefix: "a")
            let ledgerA = try a.openSigned()
            for index in 1...3 { try ledgerA.append(chargeDraft("a-c\(index)", pence: Int64(index))) }
            b = try LedgerFixture(prefix: "b")
            try AccountSync.join(directory: b.directory, account: a.directory, ids: b.ids)
            ledgerB = try b.openSigned()
        }

        /// B's file as A's data directory holds it.
        var fileBInA: String { a.directory + "/ledger/" + ledgerB.device + ".jsonl" }

        /// B charges `count` times (`pence` each), then another process on A merges B's file in: B's new lines are
        /// appended to B's file in A's directory, and no checkpoint is written.
        func bChargesAndAMerges(_ count: Int, pence: Int64 = 2, tag: String = "b") throws {
            for index in 1...count { try ledgerB.append(chargeDraft("\(tag)-\(index)", pence: pence)) }
            _ = try AccountSync(try a.openSigned()).merge(files: [b.file(of: ledgerB)])
        }

        /// A full load's balance of A's directory now.
        func fullLoad() throws -> MicroCredits { try a.openSigned().balance }

        var counter: LedgerCheckpoint.Counter { LedgerCheckpoint.counter(directory: a.directory) }

        /// A full load (which writes the checkpoint), after which the counter reads nothing new.
        func settle() throws {
            let full = try fullLoad()
            #expect(counter == .counted(full, newEntries: 0))
        }
    }

    @Test func linesAppendedByAnotherProcessAreTakenForward() throws {
        let account = try Account()
        // A new device's file arrives (its lines are all new), then grows.
        try account.bChargesAndAMerges(2)
        let before = try readBytes(account.fileBInA).count
        #expect(account.counter == .counted(MicroCredits(5_000_000 - 60_000 - 40_000), newEntries: 2))
        try account.bChargesAndAMerges(3, pence: 1, tag: "later")
        #expect(try readBytes(account.fileBInA).count > before, "the merge appended to B's file")
        let expected = MicroCredits(5_000_000 - 60_000 - 40_000 - 30_000)
        #expect(account.counter == .counted(expected, newEntries: 3), "only the three new lines were read")
        // The checkpoint was written forward: the next counter reads nothing, and a full load agrees.
        #expect(account.counter == .counted(expected, newEntries: 0))
        #expect(try account.fullLoad() == expected)
    }

    @Test func anAppendByThisDeviceThenAMergeIsTakenForward() throws {
        let account = try Account()
        // Appends by another process on A keep the checkpoint (their ids in it), then B's lines come.
        let other = try account.a.openSigned()
        for index in 1...5 { try other.append(chargeDraft("more-\(index)", pence: 1)) }
        try account.bChargesAndAMerges(1)
        #expect(account.counter == .counted(try account.fullLoad(), newEntries: 1))
    }

    /// B declines A's charge a-c1 after A has declined it: B's line has the id of one A's file holds. A full load
    /// counts it once; the counter leaves it to one. `inIDsFile`: A's refund is among the ids of `checkpoint-ids`
    /// (a full load wrote the checkpoint after it), else among the ids appended since (kept in the checkpoint).
    @Test(arguments: [false, true])
    func aNewLineWithAnIDReadBeforeIsLeftToAFullLoad(inIDsFile: Bool) throws {
        let account = try Account()
        _ = try account.ledgerB.decline("a-c1", reason: .test)
        _ = try account.a.openSigned().decline("a-c1", reason: .test)
        if inIDsFile {
            try FileManager.default.removeItem(atPath: account.a.directory + "/checkpoint")
            _ = try account.a.openSigned()
        }
        _ = try AccountSync(try account.a.openSigned()).merge(files: [account.b.file(of: account.ledgerB)])
        #expect(account.counter == .readWhole(nil))
        // The refund counts once.
        #expect(try account.fullLoad() == MicroCredits(5_000_000 - 50_000))
    }

    /// As above, A's refund in a chunk appended to `checkpoint-ids` by a batch of appends after it.
    @Test func anIDInAnAppendedChunkOfTheIDsFileIsFound() throws {
        let account = try Account()
        _ = try account.ledgerB.decline("a-c1", reason: .test)
        let ledgerA = try account.a.openSigned()
        _ = try ledgerA.decline("a-c1", reason: .test)
        let ids = account.a.directory + "/checkpoint-ids"
        let before = try readBytes(ids).count
        try ledgerA.appendBatch((1...CheckpointIDs.recentLimit).map { chargeDraft("batch-\($0)", pence: 1) })
        #expect(try readBytes(ids).count > before + CheckpointIDs.recentLimit * 8, "a chunk added")
        _ = try AccountSync(try account.a.openSigned()).merge(files: [account.b.file(of: account.ledgerB)])
        #expect(account.counter == .readWhole(nil))
        #expect(try account.fullLoad() == MicroCredits(5_000_000 - 50_000 - Int64(CheckpointIDs.recentLimit) * 10_000))
    }

    @Test func aSecondCreditOfAStoreTransactionIsLeftToAFullLoad() throws {
        let account = try Account()
        let topUp = EntryDraft(
            id: "topup-a", kind: .topup, quantity: 1, amount: MicroCredits(5_000_000), text: "Top-up",
            reference: "txn-1")
        try account.a.openSigned().append(topUp)
        try account.ledgerB.append(
            EntryDraft(
                id: "topup-b", kind: .topup, quantity: 1, amount: MicroCredits(5_000_000), text: "Top-up",
                reference: "txn-1"))
        _ = try AccountSync(try account.a.openSigned()).merge(files: [account.b.file(of: account.ledgerB)])
        #expect(account.counter == .readWhole(nil))
        #expect(try account.fullLoad() == MicroCredits(10_000_000 - 60_000), "credited once")
    }

    @Test func aTamperedAppendedLineIsRefusedAsAFullReadRefusesIt() throws {
        let account = try Account()
        try account.bChargesAndAMerges(2)
        try account.settle()
        try account.bChargesAndAMerges(2, tag: "later")
        // The last line's amount changed in place (same length): its MAC no longer matches.
        var bytes = try readBytes(account.fileBInA)
        let amount = Array("\"amount\":-20000".utf8)
        let at = try #require(bytes.lastRange(of: amount))
        bytes[at.upperBound - 5] = UInt8(ascii: "9")
        try overwrite(account.fileBInA, with: bytes)
        let checkpoint = try readBytes(account.a.directory + "/checkpoint")
        #expect(account.counter == .readWhole(nil))
        #expect(try readBytes(account.a.directory + "/checkpoint") == checkpoint, "nothing written")
        // What the counter falls back on refuses it exactly as a full read without any checkpoint does.
        let withCheckpoint = openError(account.a.directory)
        try FileManager.default.removeItem(atPath: account.a.directory + "/checkpoint")
        let without = openError(account.a.directory)
        #expect(withCheckpoint != nil && withCheckpoint == without)
        #expect(withCheckpoint?.contains("does not verify") == true, "\(withCheckpoint ?? "")")
    }

    @Test func aTornAppendedLineIsLeftToAFullLoad() throws {
        let account = try Account()
        try account.bChargesAndAMerges(1)
        try account.settle()
        try appendInPlace(account.fileBInA, Array("{\"id\":\"half".utf8))
        #expect(account.counter == .readWhole(nil))
    }

    @Test func aFileCutRolledBackOrRewrittenIsReadWholeAndSaid() throws {
        for kind in [LedgerCheckpoint.FileChange.Kind.cut, .replaced, .rewritten, .removed] {
            let account = try Account()
            try account.bChargesAndAMerges(3)
            let older = try readBytes(account.fileBInA)
            try account.bChargesAndAMerges(1, tag: "later")
            try account.settle()
            let path = account.fileBInA
            let bytes = try readBytes(path)
            switch kind {
            case .cut: #expect(truncate(path, off_t(older.count)) == 0)
            case .replaced:
                // An older copy put back, as a restore does: a new file renamed into place.
                try writeBytes(older, to: path + ".restored")
                try FileManager.default.removeItem(atPath: path)
                try FileManager.default.moveItem(atPath: path + ".restored", toPath: path)
            case .rewritten:
                // The last line changed in place, then a line added after it: longer, but not by appending.
                var changed = bytes
                changed[changed.count - 3] = changed[changed.count - 3] == UInt8(ascii: "0") ? 0x31 : 0x30
                try overwrite(path, with: changed + Array(older.suffix(from: older.count - 10)))
            case .removed: try FileManager.default.removeItem(atPath: path)
            }
            #expect(
                account.counter == .readWhole(LedgerCheckpoint.FileChange(kind: kind, file: path)), "\(kind)")
        }
    }

    @Test func theNoticeSaysWhichFileAndWhatHappened() {
        let cut = LedgerCheckpoint.FileChange(kind: .cut, file: "/d/ledger/b.jsonl")
        #expect(
            cut.description
                == "/d/ledger/b.jsonl is shorter than when the balance was last counted (lines cut off, or an older "
                + "copy put back): every entry was read again")
    }

    @Test func aForgedCheckpointIsIgnored() throws {
        let account = try Account()
        try account.bChargesAndAMerges(1)
        try account.settle()
        let path = account.a.directory + "/checkpoint"
        let good = try readBytes(path)
        // The balance edited: the MAC fails.
        let text = String(decoding: good, as: UTF8.self)
        let balance = try #require(text.split(separator: "\n").first { $0.hasPrefix("balance ") })
        try writeBytes(Array(text.replacingOccurrences(of: String(balance), with: "balance 999999999").utf8), to: path)
        #expect(account.counter == .readWhole(nil))
        // A chain edited so that a line of another chain would follow: the MAC fails too.
        let zeroed = text.replacingOccurrences(of: " 1 - 1\n", with: " 1 - 0\n")
        if zeroed != text {
            try writeBytes(Array(zeroed.utf8), to: path)
            #expect(account.counter == .readWhole(nil))
        }
        // A checkpoint signed under another account's key.
        let stranger = try LedgerFixture(prefix: "s")
        _ = try stranger.openSigned()
        try writeBytes(try readBytes(stranger.directory + "/checkpoint"), to: path)
        #expect(account.counter == .readWhole(nil))
    }

    @Test func anEditedIDsFileIsIgnored() throws {
        let account = try Account()
        _ = try account.ledgerB.decline("a-c1", reason: .test)
        _ = try account.a.openSigned().decline("a-c1", reason: .test)
        try FileManager.default.removeItem(atPath: account.a.directory + "/checkpoint")
        _ = try account.a.openSigned()
        // Every id hash but one zeroed: A's refund would no longer be found, and B's copy of it counted twice.
        let ids = account.a.directory + "/checkpoint-ids"
        try writeBytes([UInt8](repeating: 0, count: try readBytes(ids).count), to: ids)
        _ = try AccountSync(try account.a.openSigned()).merge(files: [account.b.file(of: account.ledgerB)])
        #expect(account.counter == .readWhole(nil))
        #expect(try account.fullLoad() == MicroCredits(5_000_000 - 50_000))
    }

    @Test func manyAppendsWriteTheIDsFileAgainAndStillTakeForward() throws {
        let account = try Account()
        let ids = account.a.directory + "/checkpoint-ids"
        let first = try readBytes(ids).count
        let ledger = try account.a.openSigned()
        for index in 1...300 { try ledger.append(chargeDraft("many-\(index)", pence: 1)) }
        #expect(try readBytes(ids).count > first, "written again past the recent limit")
        try account.bChargesAndAMerges(1)
        #expect(account.counter == .counted(try account.fullLoad(), newEntries: 1))
        // Many lines taken forward at once go in the file too (a few stay in the checkpoint).
        let before = try readBytes(ids).count
        try account.bChargesAndAMerges(CheckpointIDs.recentLimit + 1, pence: 1, tag: "bulk")
        #expect(account.counter == .counted(try account.fullLoad(), newEntries: CheckpointIDs.recentLimit + 1))
        #expect(try readBytes(ids).count > before)
    }

    // MARK: helpers

    private func openError(_ directory: String) -> String? {
        do {
            _ = try Ledger.openSigned(directory: directory)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Writes `bytes` over the file at `path` in place (the same inode).
    private func overwrite(_ path: String, with bytes: [UInt8]) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(bytes))
    }

    /// Appends `bytes` to the file at `path` in place.
    private func appendInPlace(_ path: String, _ bytes: [UInt8]) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(bytes))
    }
}

extension [UInt8] {
    /// The last range of `pattern` in these bytes.
    fileprivate func lastRange(of pattern: [UInt8]) -> Range<Int>? {
        guard count >= pattern.count else { return nil }
        for start in stride(from: count - pattern.count, through: 0, by: -1)
        where self[start..<(start + pattern.count)].elementsEqual(pattern) {
            return start..<(start + pattern.count)
        }
        return nil
    }
}
