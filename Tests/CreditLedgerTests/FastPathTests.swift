import CreditLedger
import Foundation
import Signing
import Testing

@testable import LedgerEntries
@testable import LedgerSync
@testable import LedgerVerification

/// Issue 7: the fast paths of the ledger give exactly what the slow, strict ones give. The canonical line reader
/// against the strict parser, the 32-byte chain values against their text, the id index, the chunked reader, the
/// in-memory union against the file merge, the verifier's whole-chain check against its line-by-line judgement,
/// and the signed checkpoint against a full load.
@Suite struct FastPathTests {
    /// A signed line as the ledger writes it.
    private static func signedLine(_ entry: LedgerEntry, key: [UInt8] = Array(repeating: 1, count: 32)) throws
        -> [UInt8]
    {
        var entry = entry
        if entry.prev == nil { entry.prev = String(repeating: "0", count: 64) }
        let body = EntryCodec.body(of: entry)
        let mac = Hex.encode(try HMACSHA256.authenticationCode(for: body, key: key))
        return Array(EntryCodec.line(body: body, mac: mac).dropLast())
    }

    private static let charge = LedgerEntry(
        id: "2f1c7a0e-5b7d-4c1e-9a2f-3d4e5f607182", device: "d3v1c3-0001", sequence: 42,
        time: Timestamp(milliseconds: 1_795_975_609_123), kind: .charge, feature: "transcript", subject: "note-17",
        quantity: 3, amount: MicroCredits(-90_000), balanceAfter: MicroCredits(4_910_000))

    /// Calls `body` with `line` with each of its bits flipped in turn, then with each of its prefixes, and a name
    /// for each.
    private static func forEachDamage(of line: [UInt8], _ body: ([UInt8], String) -> Void) {
        for index in line.indices {
            for flip: UInt8 in [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80] {
                var copy = line
                copy[index] ^= flip
                body(copy, "byte \(index) ^ \(flip)")
            }
        }
        for length in 0..<line.count { body(Array(line[0..<length]), "prefix of \(length)") }
    }

    /// The canonical reader accepts a line only when the strict reader does, and reads the same entry.
    private func expectAgreement(_ line: [UInt8], _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        var context = LineReadContext()
        let fast = line.withUnsafeBytes { EntryCodec.parseCanonical($0, context: &context) }
        let strict = try? EntryCodec.parse(line)
        if let fast {
            #expect(strict == fast, "\(name): the fast reader read another entry", sourceLocation: sourceLocation)
        }
        if strict == nil {
            #expect(
                fast == nil, "\(name): the fast reader accepted a line the strict one refuses",
                sourceLocation: sourceLocation)
        }
        // Through the public path too: the same entry or the same refusal.
        var shared = LineReadContext()
        let combined: LedgerEntry? = line.withUnsafeBufferPointer { try? EntryCodec.parse($0, context: &shared) }
        #expect(combined == strict, "\(name)", sourceLocation: sourceLocation)
    }

    @Test func theFastReaderTakesWhatTheLedgerWrites() throws {
        var context = LineReadContext()
        let line = try FastPathTests.signedLine(FastPathTests.charge)
        let fast = try #require(line.withUnsafeBytes { EntryCodec.parseCanonical($0, context: &context) })
        #expect(fast == (try EntryCodec.parse(line)))
        #expect(fast.mac?.count == 64 && fast.prev == String(repeating: "0", count: 64))
        // Every kind, with and without its optional fields.
        for kind in EntryKind.allCases {
            var entry = FastPathTests.charge
            entry.kind = kind
            entry.refersTo = "charge-1"
            entry.reason = "not-needed"
            entry.text = "Top-up (simulated, no money taken)"
            entry.reference = "SIM-1"
            entry.product = "ai.voicedebrief.app.credit.500"
            entry.receipt = "eyJhbGciOiJFUzI1NiJ9.eyJ4IjoxfQ.c2ln"
            let full = try FastPathTests.signedLine(entry)
            #expect(full.withUnsafeBytes { EntryCodec.parseCanonical($0, context: &context) } == entry.signedCopy(full))
            expectAgreement(full, "\(kind) with every field")
            let unsigned = Array(EntryCodec.line(body: EntryCodec.body(of: FastPathTests.charge), mac: nil).dropLast())
            #expect(
                unsigned.withUnsafeBytes { EntryCodec.parseCanonical($0, context: &context) } == FastPathTests.charge)
        }
    }

    @Test func theFastReaderNeverDisagreesWithTheStrictOne() throws {
        for (name, line) in EntryCodecTests.malformedLines { expectAgreement(line, name) }
        let line = try FastPathTests.signedLine(FastPathTests.charge)
        FastPathTests.forEachDamage(of: line) { expectAgreement($0, $1) }
        // Odd but valid: escapes, non-ASCII, another key order, a non-hex MAC, the largest integers.
        let odd = [
            #"{"id":"c\u0031","device":"dev","seq":1,"time":"2026-11-29T18:06:49.123Z","kind":"charge","quantity":1,"amount":-5,"balanceAfter":5}"#,
            #"{"id":"c1","device":"dév","seq":1,"time":"2026-11-29T18:06:49.123Z","kind":"charge","quantity":1,"amount":-5,"balanceAfter":5}"#,
            #"{"device":"dev","id":"c1","seq":1,"time":"2026-11-29T18:06:49.123Z","kind":"charge","quantity":1,"amount":-5,"balanceAfter":5}"#,
            #"{"id":"c1","device":"dev","seq":1,"time":"2026-11-29T18:06:49.123Z","kind":"charge","quantity":1,"amount":-5,"balanceAfter":5,"mac":"ABCDEF"}"#,
            #"{"id":"c1","device":"dev","seq":1,"time":"2026-11-29T18:06:49.123Z","kind":"charge","quantity":1,"amount":-9223372036854775808,"balanceAfter":9223372036854775807}"#,
            #"{"id":"c1","device":"dev","seq":1,"time":"2026-11-29T18:06:49.123Z","kind":"charge","quantity":1,"amount":-999999999999999999,"balanceAfter":0}"#,
        ]
        for text in odd {
            expectAgreement(Array(text.utf8), text)
            #expect((try? EntryCodec.parse(Array(text.utf8))) != nil, "\(text) is valid")
        }
    }

    /// A reader that has read the line before takes the next line's device, `prev`, `mac` and packed id by their
    /// length and closing quote: with any one bit of that line flipped, or any prefix of it, it still reads what
    /// the strict reader reads, or leaves the line to it.
    @Test func aReaderPrimedByTheLineBeforeNeverDisagreesWithTheStrictOne() throws {
        let first = try FastPathTests.signedLine(FastPathTests.charge)
        let firstEntry = try EntryCodec.parse(first)
        var next = FastPathTests.charge
        next.id = "9d3c1a2b-4e5f-4a6b-8c7d-0e1f2a3b4c5d"
        next.sequence = 43
        next.prev = firstEntry.mac
        let second = try FastPathTests.signedLine(next)
        func expectPrimedAgreement(_ line: [UInt8], _ name: String) {
            var context = LineReadContext(device: FastPathTests.charge.device)
            _ = first.withUnsafeBytes { EntryCodec.parseCanonical($0, context: &context) }
            let fast = line.withUnsafeBytes { EntryCodec.parseCanonical($0, context: &context) }
            let strict = try? EntryCodec.parse(line)
            if let fast { #expect(strict == fast, "\(name): the primed reader read another entry") }
            if strict == nil {
                #expect(fast == nil, "\(name): the primed reader accepted a line the strict one refuses")
            }
        }
        expectPrimedAgreement(second, "the next line")
        var context = LineReadContext(device: FastPathTests.charge.device)
        _ = first.withUnsafeBytes { EntryCodec.parseCanonical($0, context: &context) }
        #expect(
            second.withUnsafeBytes { EntryCodec.parseCanonical($0, context: &context) }
                == (try EntryCodec.parse(second)))
        FastPathTests.forEachDamage(of: second) { expectPrimedAgreement($0, $1) }
        // A device name that needs an escape is never taken as the device before.
        var quoted = LineReadContext(device: "a\"b")
        let escaped = Array(
            #"{"id":"c1","device":"a\"b","seq":1,"time":"2026-11-29T18:06:49.123Z","kind":"charge","quantity":1,"amount":-5,"balanceAfter":5}"#
                .utf8)
        let strict = try EntryCodec.parse(escaped)
        #expect(strict.device == "a\"b")
        #expect(escaped.withUnsafeBytes { EntryCodec.parseCanonical($0, context: &quoted) } == nil)
        #expect(try escaped.withUnsafeBufferPointer { try EntryCodec.parse($0, context: &quoted) } == strict)
    }

    @Test func aFileSharesOneDeviceString() throws {
        var context = LineReadContext(device: FastPathTests.charge.device)
        let line = try FastPathTests.signedLine(FastPathTests.charge)
        let first = try line.withUnsafeBufferPointer { try EntryCodec.parse($0, context: &context) }
        let second = try line.withUnsafeBufferPointer { try EntryCodec.parse($0, context: &context) }
        #expect(first.device == second.device)
        #expect(context.device == FastPathTests.charge.device)
    }

    // MARK: chain values

    @Test func chainDigestsAreTheirHexExactly() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
            let text = Hex.encode(bytes)
            let digest = ChainDigest(hex: text)
            #expect(digest?.hex == text)
            #expect(digest?.bytes == bytes)
            #expect(ChainField(text) == .digest(digest!))
        }
        #expect(ChainDigest(hex: String(repeating: "A", count: 64)) == nil, "uppercase is not the ledger's form")
        #expect(ChainDigest(hex: String(repeating: "0", count: 63)) == nil)
        #expect(ChainDigest(hex: String(repeating: "g", count: 64)) == nil)
        #expect(ChainDigest(hex: String(repeating: "0", count: 62) + "/0") == nil)
        #expect(ChainDigest(hex: String(repeating: "0", count: 62) + ":0") == nil)
        #expect(ChainDigest(hex: String(repeating: "0", count: 62) + "`0") == nil)
        #expect(ChainField("ABCD") == .text("ABCD"))
        #expect(ChainField("ABCD").text == "ABCD")
        var entry = FastPathTests.charge
        entry.mac = "not hex"
        #expect(entry.mac == "not hex")
        entry.mac = String(repeating: "ab", count: 32)
        #expect(entry.mac == String(repeating: "ab", count: 32))
    }

    // MARK: id index

    @Test func theIDIndexFindsEveryIDOnce() {
        let ids = (0..<5_000).map { "id-\($0 % 4_000)-\($0 % 4_000 * 7)" }
        var index = EntryIDIndex()
        var first: [String: Int] = [:]
        for (position, id) in ids.enumerated() {
            let existing = index.insert(position, hash: EntryIDIndex.hash(id)) { ids[$0] == id }
            #expect(existing == first[id])
            if first[id] == nil { first[id] = position }
        }
        #expect(index.count == 4_000)
        for (id, position) in first {
            #expect(index.find(hash: EntryIDIndex.hash(id)) { ids[$0] == id } == position)
        }
        #expect(index.find(hash: EntryIDIndex.hash("absent")) { ids[$0] == "absent" } == nil)
    }

    // MARK: chunked reading

    @Test func linesComeWholeAcrossChunks() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("lines")
        var lines: [[UInt8]] = []
        for index in 0..<300 {
            lines.append(Array(String(repeating: "x", count: (index * 37) % 9_000).utf8) + Array("\(index)".utf8))
        }
        try writeBytes(lines.flatMap { $0 + [0x0A] } + Array("unfinished".utf8), to: path)
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        var seen: [[UInt8]] = []
        let outcome = try LineChunks.read(fd: fd, path: path, from: 0, to: Int64(size), chunkSize: 4096) { line, _ in
            seen.append(Array(line))
            return true
        }
        #expect(seen == lines)
        #expect(outcome.unterminated)
        #expect(outcome.consumed == Int64(size - "unfinished".utf8.count))
    }

    @Test func aBigLedgerLoadsTheSameInChunks() throws {
        let fixture = try LedgerFixture(prefix: "big")
        let ledger = try fixture.openSigned()
        var drafts: [EntryDraft] = []
        for index in 0..<30_000 {
            drafts.append(
                chargeDraft(
                    "big-\(index)", pence: Int64(index % 7 + 1), feature: "transcript", subject: "note-\(index)"))
        }
        try ledger.appendBatch(drafts)
        try ledger.decline("big-17", reason: .notNeeded)
        let reread = try fixture.open()
        #expect(reread.entries == ledger.entries)
        #expect(reread.balance == ledger.balance)
        #expect(reread.entry(id: "big-29999") == ledger.entry(id: "big-29999"))
        #expect(reread.distinctEntries.map(\.id) == ledger.distinctEntries.map(\.id))
    }

    // MARK: union

    @Test func theUnionIsWhatMergeWrites() throws {
        let a = try LedgerFixture(prefix: "a")
        let b = try LedgerFixture(prefix: "b")
        let ledgerA = try a.open()
        let ledgerB = try b.open()
        for index in 1...20 { try ledgerA.append(chargeDraft("a-\(index)", pence: 1)) }
        for index in 1...30 { try ledgerB.append(chargeDraft("b-\(index)", pence: 2)) }
        try ledgerB.decline("b-3", reason: .test)
        let union = LedgerUnion.union(ledgerA.entries, ledgerB.entries)
        let report = try AccountSync(ledgerA).merge(files: [b.file(of: ledgerB)])
        #expect(union.report == report)
        #expect(union.balance == ledgerA.balance)
        #expect(union.distinctEntries.map(\.id) == ledgerA.distinctEntries.map(\.id))
        // The other way round, the same balance.
        #expect(LedgerUnion.union(ledgerB.entries, ledgerA.entries).balance == union.balance)
        // Idempotent.
        let again = LedgerUnion.union(union.entries, ledgerB.entries)
        #expect(again.report.addedCount == 0 && again.report.alreadyPresent == ledgerB.entries.count)
    }

    @Test func theUnionReportsAForkAGapAndAConflict() throws {
        let device = "dev-1"
        func entry(_ id: String, _ sequence: Int64, amount: Int64 = -10_000) -> LedgerEntry {
            LedgerEntry(
                id: id, device: device, sequence: sequence, time: testStart, kind: .charge, feature: "debrief",
                amount: MicroCredits(amount), balanceAfter: .zero)
        }
        let here = [entry("x1", 1), entry("x2", 2)]
        let fork = LedgerUnion.union(here, [entry("x1", 1), entry("y2", 2), entry("y3", 3)])
        #expect(fork.report.problems.count == 1 && fork.report.problems[0].hasPrefix("fork: incoming line 2"))
        #expect(fork.report.alreadyPresent == 1 && fork.report.addedCount == 0)
        let gap = LedgerUnion.union(here, [entry("x4", 4)])
        #expect(gap.report.problems.count == 1 && gap.report.problems[0].hasPrefix("gap: "))
        let conflict = LedgerUnion.union(here, [entry("x3", 3), entry("x1", 4, amount: -20_000)])
        #expect(
            conflict.report.problems.count == 1 && conflict.report.problems[0].hasPrefix("conflict: incoming line 2"))
        #expect(conflict.report.addedCount == 1)
    }

    // MARK: checkpoint

    @Test func theCheckpointGivesTheBalanceOfAnUnchangedLedger() throws {
        let fixture = try LedgerFixture(prefix: "cp")
        let ledger = try fixture.openSigned()
        for index in 1...10 { try ledger.append(chargeDraft("cp-\(index)", pence: Int64(index))) }
        #expect(LedgerCheckpoint.balance(directory: fixture.directory) == ledger.balance)
        // Another process's append keeps it current.
        let other = try fixture.openSigned()
        try other.append(chargeDraft("cp-other", pence: 3))
        #expect(LedgerCheckpoint.balance(directory: fixture.directory) == other.balance)
        try ledger.refresh()
        #expect(ledger.balance == other.balance)
    }

    @Test func aChangedLedgerMeansAFullLoad() throws {
        let fixture = try LedgerFixture(prefix: "cp")
        let ledger = try fixture.openSigned()
        try ledger.append(chargeDraft("cp-1", pence: 1))
        let path = fixture.file(of: ledger)
        let checkpoint = fixture.directory + "/checkpoint"
        #expect(LedgerCheckpoint.balance(directory: fixture.directory) == ledger.balance)

        // A line added behind the ledger's back (a copy, an editor, an unfinished write).
        let original = try readBytes(path)
        try appendBytes(Array("{\"id\":".utf8), to: path)
        #expect(LedgerCheckpoint.balance(directory: fixture.directory) == nil)
        try writeBytes(original, to: path)
        #expect(LedgerCheckpoint.balance(directory: fixture.directory) == nil, "rewritten: the change time moved")
        // A full load writes a new one.
        let reopened = try fixture.openSigned()
        #expect(LedgerCheckpoint.balance(directory: fixture.directory) == reopened.balance)

        // The checkpoint itself changed: its MAC fails.
        var bytes = try readBytes(checkpoint)
        let text = String(decoding: bytes, as: UTF8.self)
        let balanceLine = try #require(text.split(separator: "\n").first { $0.hasPrefix("balance ") })
        bytes = Array(text.replacingOccurrences(of: String(balanceLine), with: "balance 999999999").utf8)
        try writeBytes(bytes, to: checkpoint)
        #expect(LedgerCheckpoint.balance(directory: fixture.directory) == nil)

        // Another device's file arrives: its lines are taken forward (an empty one adds nothing); one that does
        // not read as a ledger is left to a full load.
        let current = try fixture.openSigned().balance
        #expect(LedgerCheckpoint.balance(directory: fixture.directory) == current)
        try writeBytes([], to: fixture.directory + "/ledger/other.jsonl")
        #expect(LedgerCheckpoint.balance(directory: fixture.directory) == current)
        try writeBytes(Array("not an entry\n".utf8), to: fixture.directory + "/ledger/other.jsonl")
        #expect(LedgerCheckpoint.balance(directory: fixture.directory) == nil)
        try FileManager.default.removeItem(atPath: fixture.directory + "/ledger/other.jsonl")

        // The head replaced.
        _ = try fixture.openSigned()
        let headPath = SignedHead.path(in: fixture.directory, device: ledger.device)
        try writeBytes(try readBytes(headPath), to: headPath + ".copy")
        try FileManager.default.removeItem(atPath: headPath)
        try FileManager.default.moveItem(atPath: headPath + ".copy", toPath: headPath)
        #expect(LedgerCheckpoint.balance(directory: fixture.directory) == nil)

        // No key, no checkpoint.
        _ = try fixture.openSigned()
        try FileManager.default.removeItem(atPath: LedgerKeys.macKeyPath(in: fixture.directory))
        #expect(LedgerCheckpoint.balance(directory: fixture.directory) == nil)
    }

    @Test func noCheckpointWhenALoadHasSomethingToSay() throws {
        let fixture = try LedgerFixture(prefix: "cp")
        let ledger = try fixture.openSigned()
        try ledger.append(chargeDraft("shared", pence: 1))
        // Another device's file with the same id and other content: a full load reports it every time.
        var other = try #require(ledger.entry(id: "shared"))
        other.device = "zz-other"
        other.sequence = 1
        other.amount = MicroCredits(-90_000)
        other.prev = nil
        other.mac = nil
        // Signed with the ledger's key: another device's file in a signed ledger must be.
        let key = try LedgerKeys.load(from: fixture.directory).macKey
        try writeBytes(Self.signedLine(other, key: key) + [0x0A], to: fixture.directory + "/ledger/zz-other.jsonl")
        let reopened = try fixture.openSigned()
        #expect(reopened.notices.contains { if case .conflictingDuplicate = $0 { return true } else { return false } })
        #expect(LedgerCheckpoint.balance(directory: fixture.directory) == nil)
        // And an unsigned ledger has none.
        let unsigned = try LedgerFixture(prefix: "u")
        _ = try unsigned.open()
        #expect(LedgerCheckpoint.balance(directory: unsigned.directory) == nil)
    }

    // MARK: verifier

    @Test func aCleanFileVerifiesAsAWholeChainAndAsLines() throws {
        let fixture = try LedgerFixture(prefix: "v")
        let ledger = try fixture.openSigned()
        for index in 1...50 { try ledger.append(chargeDraft("v-\(index)", pence: 1)) }
        let keys = try LedgerKeys.load(from: fixture.directory)
        let read = try LedgerVerifier.read(fixture.file(of: ledger))
        let valid = try LedgerVerifier.checkMACs(of: read, key: keys.macKey)
        #expect(valid.allSatisfy { $0 })
        #expect(
            LedgerVerifier.cleanChain(of: read, device: ledger.device, macValid: valid)?.hex
                == ledger.head(of: ledger.device)?.mac)
        let verifier = LedgerVerifier(macKey: keys.macKey, headPublicKey: keys.headKey.publicKey, receiptCheck: nil)
        let report = try verifier.verify(read: [read], heads: [:])
        #expect(report.isClean && report.entriesChecked == 51 && report.balance == ledger.balance)
        // The same file twice: every line is the same line, not a fork.
        let twice = try verifier.verify(read: [read, read], heads: [:])
        #expect(twice.problems.isEmpty)
    }
}

extension LedgerEntry {
    /// This entry with the prev and mac of `line` (as the ledger wrote it).
    fileprivate func signedCopy(_ line: [UInt8]) -> LedgerEntry {
        var copy = self
        let parsed = try? EntryCodec.parse(line)
        copy.prev = parsed?.prev
        copy.mac = parsed?.mac
        return copy
    }
}

/// The parallel first read gives what reading line after line gives: the same entries, the same torn tail, the
/// same corrupt line. (Parts are made small here so that a small file is cut into several.)
@Suite(.serialized) struct ParallelLoadTests {
    func withSmallParts<T>(_ body: () throws -> T) rethrows -> T {
        let saved = ParallelLines.minimumPartBytes
        ParallelLines.minimumPartBytes = 2_048
        defer { ParallelLines.minimumPartBytes = saved }
        return try body()
    }

    func ledgerWithLines(_ count: Int) throws -> (LedgerFixture, Ledger) {
        let fixture = try LedgerFixture(prefix: "par")
        let ledger = try fixture.openSigned()
        try ledger.appendBatch(
            (1...count).map { chargeDraft("par-\($0)", pence: Int64($0 % 9 + 1), subject: "note-\($0)") })
        try ledger.decline("par-5", reason: .test)
        return (fixture, ledger)
    }

    @Test func theSameEntriesInParallel() throws {
        let (fixture, ledger) = try ledgerWithLines(400)
        let parallel = try withSmallParts { try fixture.openSigned() }
        #expect(parallel.entries == ledger.entries)
        #expect(parallel.balance == ledger.balance)
        #expect(parallel.entry(id: "refund-par-5") == ledger.entry(id: "refund-par-5"))
        #expect(parallel.head(of: parallel.device)?.mac == ledger.head(of: ledger.device)?.mac)
        // Appending after a parallel read chains on.
        try parallel.append(chargeDraft("after", pence: 1))
        let keys = try LedgerKeys.load(from: fixture.directory)
        let verifier = LedgerVerifier(macKey: keys.macKey, headPublicKey: keys.headKey.publicKey, receiptCheck: nil)
        #expect(try verifier.verify(files: [fixture.file(of: parallel)], heads: [:]).isClean)
    }

    @Test func aTornTailInParallel() throws {
        let (fixture, ledger) = try ledgerWithLines(300)
        let path = fixture.file(of: ledger)
        let whole = try readBytes(path)
        try appendBytes(Array(#"{"id":"half-writ"#.utf8), to: path)
        let parallel = try withSmallParts { try fixture.open() }
        #expect(parallel.entries == ledger.entries)
        #expect(parallel.notices.count == 1)
        #expect(try readBytes(path) == whole)
    }

    @Test func aBadLastLineIsATornTailInParallel() throws {
        let (fixture, ledger) = try ledgerWithLines(300)
        let path = fixture.file(of: ledger)
        let whole = try readBytes(path)
        try appendBytes(Array("garbage\n".utf8), to: path)
        let parallel = try withSmallParts { try fixture.open() }
        #expect(parallel.entries == ledger.entries)
        #expect(try readBytes(path) == whole)
    }

    @Test func aBadMiddleLineStopsEverythingInParallel() throws {
        let (fixture, ledger) = try ledgerWithLines(300)
        let path = fixture.file(of: ledger)
        for damaged in [3, 150, 299] {
            var lines = try CreditLedgerTests.lines(of: path)
            let original = lines[damaged - 1]
            lines[damaged - 1] = Array("{\"broken\":1}".utf8)
            try writeLines(lines, to: path)
            let before = try readBytes(path)
            let error = withSmallParts { expectAnyLedgerError { _ = try fixture.open() } }
            guard case .corruptLine(_, let line, _)? = error else {
                Issue.record("expected a corrupt line, got \(String(describing: error))")
                return
            }
            #expect(line == damaged)
            #expect(try readBytes(path) == before, "nothing is changed")
            lines[damaged - 1] = original
            try writeLines(lines, to: path)
        }
    }
}
