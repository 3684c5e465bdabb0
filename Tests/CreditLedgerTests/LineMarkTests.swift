import CreditLedger
import DurableFiles
import Foundation
import Signing
import Testing

@testable import LedgerEntries
@testable import LedgerVerification

/// Issue 38: a first read of a large file cuts it where the checkpoint says the last full read did (``LineMark``),
/// with no newline counted first. The marks only say where to cut: the entries read are those of a read without
/// them, whatever the marks say (stale, off a line start, wrong counts, from another file).
@Suite(.serialized) struct LineMarkTests {
    private func withSmallParts<T>(_ body: () throws -> T) rethrows -> T {
        let saved = ParallelLines.minimumPartBytes
        ParallelLines.minimumPartBytes = 2_048
        defer { ParallelLines.minimumPartBytes = saved }
        return try body()
    }

    private func ledgerWithLines(_ count: Int) throws -> (LedgerFixture, Ledger) {
        let fixture = try LedgerFixture(prefix: "mark")
        let ledger = try fixture.openSigned()
        try ledger.appendBatch(
            (1...count).map { chargeDraft("mark-\($0)", pence: Int64($0 % 9 + 1), subject: "note-\($0)") })
        return (fixture, ledger)
    }

    private func checkpoint(_ fixture: LedgerFixture) throws -> LedgerCheckpoint {
        let keys = try LedgerKeys.load(from: fixture.directory)
        let bytes = try readBytes(LedgerCheckpoint.path(in: fixture.directory))
        return try #require(
            LedgerCheckpoint.decode(bytes, mac: { try? HMACSHA256.authenticationCode(for: $0, key: keys.macKey) }))
    }

    /// The file read with `hints` through the parallel reader, and read line by line.
    private func readBoth(_ path: String, hints: [LineMark]) throws -> (ParallelLines.Outcome, [LedgerEntry]) {
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let size = Int64(try readBytes(path).count)
        let hinted = try ParallelLines.parse(
            fd: fd, path: path, from: 0, to: size, owner: "", parts: 3, hints: hints)
        let plain = try CreditLedgerTests.lines(of: path).map { try EntryCodec.parse($0) }
        return (hinted, plain)
    }

    @Test func aFullReadLeavesItsMarksAndTheNextReadUsesThem() throws {
        let (fixture, ledger) = try ledgerWithLines(400)
        let first = try withSmallParts { try fixture.openSigned() }
        let name = first.device + ".jsonl"
        let marks = try #require(try checkpoint(fixture).files.first { $0.stamp.name == name }?.lineMarks)
        #expect(marks.count > 1)
        // Each mark is a line start with the lines before it.
        let bytes = try readBytes(fixture.file(of: ledger))
        for mark in marks {
            #expect(bytes[Int(mark.offset) - 1] == 0x0A)
            #expect(bytes[0..<Int(mark.offset)].filter { $0 == 0x0A }.count == mark.line)
        }
        let second = try withSmallParts { try fixture.openSigned() }
        #expect(second.entries == ledger.entries && second.balance == ledger.balance)
        #expect(try checkpoint(fixture).files.first { $0.stamp.name == name }?.lineMarks == marks)
        // Appends keep them (the file only grew), and a read after the appends is still whole.
        try second.append(chargeDraft("after-1", pence: 1))
        try second.append(chargeDraft("after-2", pence: 1))
        #expect(try checkpoint(fixture).files.first { $0.stamp.name == name }?.lineMarks == marks)
        let third = try withSmallParts { try fixture.openSigned() }
        #expect(third.entries == second.entries && third.balance == second.balance)
    }

    @Test func marksThatDoNotHoldReadTheSameEntries() throws {
        let (fixture, ledger) = try ledgerWithLines(300)
        let path = fixture.file(of: ledger)
        let bytes = try readBytes(path)
        let starts = bytes.indices.filter { bytes[$0] == 0x0A }.map { Int64($0 + 1) }
        let size = Int64(bytes.count)
        // Far from where a read cut in three by size would cut (about lines 100 and 200).
        let right = [LineMark(offset: starts[59], line: 60), LineMark(offset: starts[149], line: 150)]
        let cases: [(String, [LineMark])] = [
            ("right", right),
            ("counts too small", [LineMark(offset: starts[59], line: 30), LineMark(offset: starts[149], line: 100)]),
            ("counts too large", [LineMark(offset: starts[59], line: 90), LineMark(offset: starts[149], line: 260)]),
            ("off a line start", [LineMark(offset: starts[59] + 7, line: 60)]),
            ("past the end", [LineMark(offset: size + 100, line: 400)]),
            ("too few for the file", [LineMark(offset: starts[3], line: 4)]),
        ]
        for (name, hints) in cases {
            let (hinted, plain) = try withSmallParts { try readBoth(path, hints: hints) }
            #expect(hinted.entries == plain, "\(name)")
            #expect(hinted.failure == nil && hinted.changed == nil, "\(name)")
            // Cut at the marks when they are line starts and leave no more than two parts' bytes after them.
            if name == "right" || name == "counts too large" { #expect(hinted.marks == right, "\(name)") }
            // What it notes of itself is where it really cut.
            for mark in hinted.marks {
                #expect(bytes[Int(mark.offset) - 1] == 0x0A, "\(name)")
                #expect(bytes[0..<Int(mark.offset)].filter { $0 == 0x0A }.count == mark.line, "\(name)")
            }
        }
    }

    @Test func marksOfAnotherFileAreNotUsed() throws {
        let (fixture, ledger) = try ledgerWithLines(300)
        _ = try withSmallParts { try fixture.openSigned() }
        // The file put back under its name (a new inode), one line fewer: the old marks are for another file.
        let path = fixture.file(of: ledger)
        var lines = try CreditLedgerTests.lines(of: path)
        lines.removeLast()
        try FileManager.default.removeItem(atPath: path)
        try Data(lines.flatMap { $0 + [0x0A] }).write(to: URL(fileURLWithPath: path))
        let reopened = try withSmallParts { try fixture.openSigned() }
        #expect(reopened.entries == Array(ledger.entries.dropLast()))
    }

    /// `credit verify` cuts each file at the checkpoint's marks too, and finds what it finds without them: a clean
    /// file clean, a line changed in place (the same file, so the marks are taken) or a line taken out in place (the
    /// marks' counts no longer hold, so the read falls back) reported in the same words.
    @Test func aVerifyCutAtTheMarksFindsWhatAVerifyWithoutThemFinds() throws {
        let (fixture, ledger) = try ledgerWithLines(400)
        _ = try withSmallParts { try fixture.openSigned() }
        let path = fixture.file(of: ledger)
        let name = Files.lastComponent(of: path)
        let keys = try LedgerKeys.load(from: fixture.directory)
        let hints = LedgerCheckpoint.lineHints(in: fixture.directory, macKey: keys.macKey)
        let marks = try #require(hints[name]?.marks)
        // The marks are of use for this file (so the verify below is cut at them).
        let size = Int64(try readBytes(path).count)
        let fd = open(path, O_RDONLY)
        let hinted = try withSmallParts {
            try ParallelLines.hintedCounts(
                marks, fd: fd, path: path, end: size, parts: ParallelLines.partCount(for: size))
        }
        close(fd)
        #expect(hinted?.bounds.dropFirst().dropLast().elementsEqual(marks.map(\.offset)) == true)
        let verifier = LedgerVerifier(macKey: keys.macKey, headPublicKey: keys.headKey.publicKey, receiptCheck: nil)
        func reports() throws -> (VerificationReport, VerificationReport) {
            try withSmallParts {
                (
                    try verifier.verify(files: [path], heads: [:], requireHeads: [], hints: hints),
                    try verifier.verify(files: [path], heads: [:])
                )
            }
        }
        let (clean, cleanWithout) = try reports()
        #expect(clean.isClean && clean.entriesChecked == ledger.entries.count)
        #expect(clean.entriesChecked == cleanWithout.entriesChecked && clean.balance == cleanWithout.balance)
        // One byte of line 150 changed where it is.
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        var bytes = try readBytes(path)
        let starts = [0] + bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
        let at = starts[149] + 10
        bytes[at] = bytes[at] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
        try handle.seek(toOffset: UInt64(at))
        handle.write(Data([bytes[at]]))
        let (changed, changedWithout) = try reports()
        #expect(!changed.isClean)
        #expect(changed.problems == changedWithout.problems && changed.entriesChecked == changedWithout.entriesChecked)
        // Line 100 taken out in place: the file shorter, the same inode.
        let shorter = Array(bytes[0..<starts[99]] + bytes[starts[100]...])
        try handle.truncate(atOffset: 0)
        try handle.seek(toOffset: 0)
        handle.write(Data(shorter))
        try handle.close()
        let (cut, cutWithout) = try reports()
        #expect(!cut.isClean)
        #expect(cut.problems == cutWithout.problems && cut.entriesChecked == cutWithout.entriesChecked)
    }

    /// A checkpoint that vouches for the same entries but has no marks (one written before them) gets them at the
    /// next open, and its ids file is not written again.
    @Test func marksAddedToACheckpointLeaveItsIDsFileAlone() throws {
        let (fixture, ledger) = try ledgerWithLines(400)
        _ = try withSmallParts { try fixture.openSigned() }
        let keys = try LedgerKeys.load(from: fixture.directory)
        var old = try checkpoint(fixture)
        let marks = old.files.map(\.lineMarks)
        #expect(marks.contains { !$0.isEmpty })
        for index in old.files.indices { old.files[index].lineMarks = [] }
        try writeBytes(
            old.encoded(mac: { (try? HMACSHA256.authenticationCode(for: $0, key: keys.macKey)) ?? [] }),
            to: LedgerCheckpoint.path(in: fixture.directory))
        let idsPath = fixture.directory + "/" + CheckpointIDs.fileName
        let idsBefore = try FileManager.default.attributesOfItem(atPath: idsPath)
        let reopened = try withSmallParts { try fixture.openSigned() }
        #expect(reopened.balance == ledger.balance)
        #expect(try checkpoint(fixture).files.map(\.lineMarks) == marks)
        let idsAfter = try FileManager.default.attributesOfItem(atPath: idsPath)
        #expect(idsAfter[.systemFileNumber] as? Int == idsBefore[.systemFileNumber] as? Int)
        #expect(idsAfter[.modificationDate] as? Date == idsBefore[.modificationDate] as? Date)
    }
}
