import CreditLedger
import Foundation
import Signing
import Testing

@testable import LedgerEntries
@testable import LedgerVerification

/// The verifier's parts, each on its own problems: the line judge of a damaged file, the cross-file index, and the
/// head check. Files are made in memory (signed lines as the ledger writes them) and parsed as `verify` reads them.
@Suite struct VerifierPartsTests {
    static let key = [UInt8](repeating: 7, count: 32)

    private static func entry(_ number: Int64, device: String = "dev-a", pence: Int64 = -1) -> LedgerEntry {
        LedgerEntry(
            id: "\(device)-c\(number)", device: device, sequence: number, time: testStart.adding(days: number),
            kind: .charge, feature: "send", amount: MicroCredits(pence * 10_000), balanceAfter: .zero)
    }

    /// `entries` as signed lines, each chained to the one before (`prev` the MAC before it), newline included.
    private static func signedLines(_ entries: [LedgerEntry]) throws -> [[UInt8]] {
        var previous = String(repeating: "0", count: 64)
        return try entries.map { entry in
            var entry = entry
            entry.prev = previous
            let body = EntryCodec.body(of: entry)
            let mac = Hex.encode(try HMACSHA256.authenticationCode(for: body, key: key))
            previous = mac
            return EntryCodec.line(body: body, mac: mac)
        }
    }

    private static func chain(_ count: Int64, device: String = "dev-a") throws -> [[UInt8]] {
        try signedLines((1...count).map { entry($0, device: device) })
    }

    private static func read(_ lines: [[UInt8]], path: String = "/data/ledger/dev-a.jsonl") -> LedgerVerifier.ReadFile {
        LedgerVerifier.parse(lines.flatMap { $0 }, path: path)
    }

    /// Every line of `lines` judged: the problems as `kind@line`, the lines that took their place, the chain's end.
    private static func judge(_ lines: [[UInt8]]) throws -> (
        problems: [String], placed: [Int], end: LedgerVerifier.ChainEnd
    ) {
        let file = read(lines)
        let valid = try LedgerVerifier.checkMACs(of: file, key: key)
        var judge = LineJudge(file: file, device: "dev-a", macValid: valid)
        var problems: [String] = []
        var placed: [Int] = []
        for index in file.lines.indices {
            let verdict = judge.judge(index)
            problems += verdict.problems.map { "\($0.kind.rawValue)@\($0.line ?? 0)" }
            if verdict.takesItsPlace { placed.append(index + 1) }
        }
        return (problems, placed, judge.end)
    }

    // MARK: the clean chain and the line judge

    @Test func aCleanChainNeedsNoJudgingAndAJudgeFindsNothingInIt() throws {
        let lines = try Self.chain(5)
        let file = Self.read(lines)
        let valid = try LedgerVerifier.checkMACs(of: file, key: Self.key)
        #expect(LedgerVerifier.cleanChain(of: file, device: "dev-a", macValid: valid) != nil)
        #expect(LedgerVerifier.cleanChain(of: file, device: "dev-b", macValid: valid) == nil, "another device's")
        let judged = try Self.judge(lines)
        #expect(judged.problems.isEmpty)
        #expect(judged.placed == [1, 2, 3, 4, 5])
        #expect(judged.end.lastSequence == 5)
        #expect(judged.end.lastMAC == LedgerVerifier.cleanChain(of: file, device: "dev-a", macValid: valid)?.hex)
    }

    @Test func aDeletedLineIsAGap() throws {
        var lines = try Self.chain(6)
        lines.remove(at: 2)
        let judged = try Self.judge(lines)
        #expect(judged.problems == ["deleted@3"])
        #expect(judged.placed == [1, 2, 3, 4, 5] && judged.end.lastSequence == 6)
        lines.removeSubrange(1...2)
        #expect(try Self.judge(lines).problems == ["deleted@2"])
    }

    @Test func aLineChangedInPlaceStillTakesItsPlace() throws {
        var lines = try Self.chain(4)
        let text = String(decoding: lines[1], as: UTF8.self)
        lines[1] = Array(text.replacingOccurrences(of: "-10000", with: "-90000").utf8)
        let judged = try Self.judge(lines)
        #expect(judged.problems == ["changed@2"])
        #expect(judged.placed == [1, 3, 4], "checked across files only when it verifies")
        #expect(judged.end.lastSequence == 4)
    }

    @Test func anUnreadableLineTakesThePlaceOfTheEntryThatWasThere() throws {
        var lines = try Self.chain(4)
        lines[2] = Array("not a ledger entry\n".utf8)
        let judged = try Self.judge(lines)
        #expect(judged.problems == ["unreadable@3"])
        #expect(judged.placed == [1, 2, 4] && judged.end.lastSequence == 4)
    }

    @Test func aLineTwiceIsDuplicatedAndTwoEntriesAtOneSequenceAreAFork() throws {
        var lines = try Self.chain(3)
        lines.append(lines[1])
        #expect(try Self.judge(lines).problems == ["duplicated@4"])
        // Another chain's #2, under the same key: a second, different entry #2.
        let other = try Self.signedLines([Self.entry(1), Self.entry(2, pence: -3)])
        var forked = try Self.chain(3)
        forked.append(other[1])
        #expect(try Self.judge(forked).problems == ["forked@4"])
    }

    @Test func movedLinesAreReordered() throws {
        var lines = try Self.chain(5)
        lines.swapAt(1, 3)
        let problems = try Self.judge(lines).problems
        #expect(problems.first == "reordered@2")
        #expect(!problems.contains { $0.hasPrefix("deleted") }, "\(problems)")
    }

    @Test func foreignAndUnsignedLinesAreNamed() throws {
        var lines = try Self.chain(3)
        // Another device's entry, signed under this key but not this device's.
        lines.append(try Self.chain(1, device: "dev-b")[0])
        // One made under another key.
        var stranger = Self.entry(9)
        stranger.prev = String(repeating: "0", count: 64)
        let body = EntryCodec.body(of: stranger)
        let forged = Hex.encode(try HMACSHA256.authenticationCode(for: body, key: [UInt8](repeating: 9, count: 32)))
        lines.append(EntryCodec.line(body: body, mac: forged))
        lines.append(EntryCodec.line(body: EntryCodec.body(of: Self.entry(4)), mac: nil))
        #expect(try Self.judge(lines).problems == ["inserted@4", "inserted@5", "unsigned@6"])
    }

    // MARK: the cross-file index

    @Test func theCrossIndexFindsCopiesConflictsAndForksAcrossFiles() throws {
        let a = Self.read(try Self.chain(3), path: "/data/a/dev-a.jsonl")
        // The same entries (copies), then #3 with other content under the same id.
        var entries = (1...3).map { Self.entry($0) }
        entries[2].amount = MicroCredits(-70_000)
        let b = Self.read(try Self.signedLines(entries), path: "/data/b/dev-a.jsonl")
        let files = [a, b]
        var index = VerifierCrossIndex()
        for line in a.lines.indices {
            let verdict = index.check(line: line, of: a, number: 0, in: files)
            #expect(verdict.isFirstWithID && verdict.duplicate == nil && verdict.fork == nil)
        }
        let copy = index.check(line: 0, of: b, number: 1, in: files)
        #expect(!copy.isFirstWithID && copy.duplicate == nil && copy.fork == nil, "a copy counts once, quietly")
        _ = index.check(line: 1, of: b, number: 1, in: files)
        let conflict = index.check(line: 2, of: b, number: 1, in: files)
        #expect(!conflict.isFirstWithID)
        #expect(conflict.duplicate?.kind == .duplicated && conflict.duplicate?.line == 3)
        #expect(conflict.duplicate?.detail.contains("/data/a/dev-a.jsonl:3") == true)
        #expect(conflict.fork?.kind == .forked && conflict.fork?.file == "/data/b/dev-a.jsonl")
        // The same line of the same file again (a file given twice) is no fork.
        let again = index.check(line: 0, of: a, number: 0, in: [a, b])
        #expect(again.fork == nil)
    }

    /// Issue 38: a good file's ids and places checked at once, on two threads, find what checking its lines one by
    /// one finds, line for line: copies, conflicts, forks, and the first with each id.
    @Test func checkingAllLinesAtOnceFindsWhatCheckingThemOneByOneFinds() throws {
        let a = Self.read(try Self.chain(40), path: "/data/a/dev-a.jsonl")
        var entries = (1...50).map { Self.entry($0) }
        entries[2].amount = MicroCredits(-70_000)
        entries[45].id = entries[7].id
        entries[46].id = "other-\(46)"
        let b = Self.read(try Self.signedLines(entries), path: "/data/b/dev-a.jsonl")
        let files = [a, b]
        var oneByOne = VerifierCrossIndex()
        var atOnce = VerifierCrossIndex()
        for line in a.lines.indices {
            _ = oneByOne.check(line: line, of: a, number: 0, in: files)
            _ = atOnce.check(line: line, of: a, number: 0, in: files)
        }
        let expected = b.lines.indices.map { oneByOne.check(line: $0, of: b, number: 1, in: files) }
        let verdicts = b.lines.withUnsafeBufferPointer { lines in
            [UInt64]().withUnsafeBufferPointer { noHashes in
                atOnce.checkAll(VerifierCrossIndex.Lines(files: files, number: 1, lines: lines), hashes: noHashes)
            }
        }
        var cursor = (duplicate: 0, fork: 0)
        for index in b.lines.indices {
            let verdict = verdicts.verdict(index, cursor: &cursor)
            #expect(verdict.isFirstWithID == expected[index].isFirstWithID, "line \(index + 1)")
            #expect(verdict.duplicate == expected[index].duplicate, "line \(index + 1)")
            #expect(verdict.fork == expected[index].fork, "line \(index + 1)")
        }
        #expect(expected.contains { $0.duplicate != nil } && expected.contains { $0.fork != nil })
        #expect(expected.contains { $0.isFirstWithID } && cursor == (verdicts.duplicates.count, verdicts.forks.count))
    }

    // MARK: the head check

    @Test func theHeadCheckSaysWhatTheHeadShows() throws {
        let key = try P256PrivateKey.generate()
        let lines = try Self.chain(4)
        let file = Self.read(lines)
        let parsed = file.lines.map { $0.entry! }
        let end = LedgerVerifier.ChainEnd(lastSequence: 4, lastMAC: parsed[3].mac!)
        func check(_ head: SignedHead?, required: Bool = true) -> LedgerVerifier.HeadFinding {
            LedgerVerifier.checkHead(
                head, required: required, device: "dev-a", file: file, end: end, publicKey: key.publicKey)
        }
        func kinds(_ finding: LedgerVerifier.HeadFinding) -> [VerificationProblem.Kind] { finding.problems.map(\.kind) }

        #expect(check(try SignedHead.make(for: parsed[3], key: key)) == LedgerVerifier.HeadFinding())
        let behind = check(try SignedHead.make(for: parsed[1], key: key))
        #expect(behind.problems.isEmpty && behind.note?.contains("behind the file's #4") == true)
        #expect(kinds(check(nil)) == [.headMissing])
        #expect(check(nil, required: false) == LedgerVerifier.HeadFinding())

        // Beyond the file: entries cut off the end.
        var beyond = parsed[3]
        beyond.sequence = 6
        #expect(kinds(check(try SignedHead.make(for: beyond, key: key))) == [.truncated])
        #expect(check(try SignedHead.make(for: beyond, key: key)).problems.first?.detail.contains("2 entries") == true)
        // At the last sequence, another MAC: another copy restored.
        var other = parsed[3]
        other.mac = String(repeating: "a", count: 64)
        #expect(kinds(check(try SignedHead.make(for: other, key: key))) == [.changed])
        // Behind, signing an entry the file no longer holds: rewritten from there.
        var rewritten = parsed[1]
        rewritten.mac = String(repeating: "b", count: 64)
        let gone = check(try SignedHead.make(for: rewritten, key: key))
        #expect(kinds(gone) == [.changed] && gone.problems.first?.detail.contains("no longer holds") == true)
        // Signed by another key.
        let forged = check(try SignedHead.make(for: parsed[3], key: try P256PrivateKey.generate()))
        #expect(kinds(forged) == [.headInvalid] && forged.problems.first?.line == nil)
    }
}
