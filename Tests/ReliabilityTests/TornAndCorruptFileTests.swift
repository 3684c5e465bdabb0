import CreditLedger
import Foundation
import Testing

/// Torn and corrupt files. The last line (one never acknowledged: the head is behind it) cut at every byte offset,
/// zero runs and seeded garbage after the last whole line: exactly the valid prefix is kept, only the unfinished
/// tail is moved aside (byte for byte into `torn/`) and reported, the chain and head verify, and the next append
/// continues it. Corruption in the middle (bit flips, overwritten, deleted or inserted bytes, a split line, a
/// duplicated line, a zeroed line): reported with its line, either when loading (nothing changed on disk, nothing set
/// aside) or, when the damaged line still reads as an entry, by `verify` at that line; never dropped silently.
@Suite struct TornAndCorruptFileTests {
    /// A signed ledger of `count` entries (opening included) and the bytes of the line that would come next.
    struct Fixture {
        let scratch: ScratchDirectory
        let directory: String
        let file: String
        let whole: [UInt8]
        let nextLine: [UInt8]
        let lineStarts: [Int]

        init(count: Int = 6) throws {
            scratch = try ScratchDirectory("torn", inMemory: true)
            directory = scratch.path + "/data"
            try SharedKeys.install(in: directory)
            let clock = FixedClock(Timestamp(milliseconds: 1_795_953_600_000), step: 1000)
            let ledger = try Ledger.openSigned(directory: directory, clock: clock, ids: SequentialIDs(prefix: "dev"))
            for index in 1..<count {
                try ledger.append(
                    charge("c-\(index)", pence: Int64(index) * 3, feature: index % 2 == 0 ? "send" : "debrief"))
            }
            file = ledger.path(forDevice: ledger.device)
            whole = Array(try #require(FileManager.default.contents(atPath: file)))
            // The next line, written in a copy, so the head here stays at the last whole entry.
            let copy = scratch.path + "/copy"
            try FileManager.default.copyItem(atPath: directory, toPath: copy)
            let other = try Ledger.openSigned(directory: copy, clock: clock, ids: SequentialIDs(prefix: "dev"))
            try other.append(
                EntryDraft(
                    id: "c-next", kind: .charge, feature: "transcript", subject: "note-\u{e9}\u{1F600}", quantity: 2,
                    amount: MicroCredits(-123_456)))
            let copied = Array(try #require(FileManager.default.contents(atPath: other.path(forDevice: other.device))))
            nextLine = Array(copied[whole.count...])
            try FileManager.default.copyItem(atPath: directory, toPath: scratch.path + "/pristine")
            var starts = [0]
            for (index, byte) in whole.enumerated() where byte == 0x0A && index + 1 < whole.count {
                starts.append(index + 1)
            }
            lineStarts = starts
        }

        /// The data directory as made (heads included), with the ledger file holding `bytes`.
        func write(_ bytes: [UInt8]) throws {
            try FileManager.default.removeItem(atPath: directory)
            try FileManager.default.copyItem(atPath: scratch.path + "/pristine", toPath: directory)
            try Data(bytes).write(to: URL(fileURLWithPath: file))
        }

        var bytes: [UInt8] { Array(FileManager.default.contents(atPath: file) ?? Data()) }

        func open() throws -> Ledger {
            try Ledger.openSigned(
                directory: directory, clock: FixedClock(Timestamp(milliseconds: 1_796_000_000_000), step: 1000))
        }

        func tornFiles() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/torn")) ?? []).sorted()
        }

        func lines(of bytes: [UInt8]) -> [[UInt8]] {
            bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map(Array.init)
        }
    }

    /// Appends `tail` after the whole entries, opens, and checks that exactly the tail was set aside.
    @discardableResult
    func expectTornTailSetAside(
        _ fixture: Fixture, tail: [UInt8], what: String, figures: inout Figures,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Bool {
        try fixture.write(fixture.whole + tail)
        figures.runs += 1
        figures.faults += 1
        let ledger: Ledger
        do {
            ledger = try fixture.open()
        } catch {
            Issue.record("\(what): the ledger does not open: \(error)", sourceLocation: sourceLocation)
            figures.failures += 1
            return false
        }
        let expectedEntries = fixture.lines(of: fixture.whole).count
        var ok = true
        func check(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition {
                Issue.record("\(what): \(message())", sourceLocation: sourceLocation)
                ok = false
            }
        }
        check(ledger.entries.count == expectedEntries, "\(ledger.entries.count) entries, expected \(expectedEntries)")
        check(fixture.bytes == fixture.whole, "the file is not cut back to its last whole line")
        if tail.isEmpty {
            check(ledger.notices.isEmpty, "notices for an untouched file: \(ledger.notices)")
            check(fixture.tornFiles().isEmpty, "something was set aside")
        } else {
            check(ledger.notices.count == 1, "notices: \(ledger.notices)")
            if case .tornTailMovedAside(_, let bytes, let saved)? = ledger.notices.first {
                check(bytes == tail.count, "the notice says \(bytes) bytes, the tail is \(tail.count)")
                check(
                    FileManager.default.contents(atPath: saved).map(Array.init) == tail,
                    "the saved tail is not the tail")
            } else {
                check(false, "no torn-tail notice")
            }
        }
        let report = try ledger.verify(receiptCheck: nil)
        check(report.isClean, "verify: \(report.problems.map(\.description))")
        try ledger.append(charge("after", pence: 1))
        let again = try ledger.verify(receiptCheck: nil)
        check(
            again.isClean && LedgerInspection(bytes: fixture.bytes).problems.isEmpty,
            "the next append does not continue the chain")
        figures.entriesChecked += expectedEntries + 1
        if !ok { figures.failures += 1 }
        return ok
    }
}

extension TornAndCorruptFileTests {
    @Test func theLastLineCutAtEveryByteOffsetLeavesExactlyTheWholeEntries() throws {
        var figures = Figures(suite: "torn and corrupt files", test: #function)
        defer { figures.record() }
        let fixture = try Fixture()
        // 0 bytes: nothing torn; count - 1 bytes: everything but the newline.
        for cut in 0..<fixture.nextLine.count {
            if !(try expectTornTailSetAside(
                fixture, tail: Array(fixture.nextLine[..<cut]), what: "cut at byte \(cut) of \(fixture.nextLine.count)",
                figures: &figures))
            {
                return
            }
        }
    }

    @Test func zeroRunsAndGarbageAfterTheLastWholeLineAreSetAside() throws {
        var figures = Figures(suite: "torn and corrupt files", test: #function)
        defer { figures.record() }
        let fixture = try Fixture()
        var tails: [(String, [UInt8])] = [
            ("one zero", [0]), ("a zero block", [UInt8](repeating: 0, count: 4096)),
            ("64 KiB of zeros", [UInt8](repeating: 0, count: 65_536)),
            ("zeros ending in a newline", [UInt8](repeating: 0, count: 300) + [0x0A]),
            ("half a line then zeros", Array(fixture.nextLine.prefix(100)) + [UInt8](repeating: 0, count: 200)),
            ("a whole line then zeros", Array(fixture.nextLine.dropLast()) + [UInt8](repeating: 0, count: 50)),
            ("a lone newline", [0x0A]),
            ("a carriage return", [0x0D]),
            ("a UTF-8 BOM", [0xEF, 0xBB, 0xBF]),
            ("an opening brace", [0x7B]),
            ("garbage ending in a newline", Array("not an entry at all\n".utf8)),
            ("the next line without its closing brace", Array(fixture.nextLine.dropLast(2)) + [0x0A]),
        ]
        for seed in Reliability.seeds("garbage-tails", fast: 40, long: 1000) {
            var random = SeededRandom(seed: seed)
            let length = Int.random(in: 1...2000, using: &random)
            var garbage = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            // One line of garbage: no newline inside, maybe one at the end.
            garbage = garbage.map { $0 == 0x0A ? 0x20 : $0 }
            if random.chance(0.5) { garbage.append(0x0A) }
            tails.append(("seeded garbage \(seed.seedText)", garbage))
        }
        for (name, tail) in tails {
            if !(try expectTornTailSetAside(fixture, tail: tail, what: name, figures: &figures)) { return }
        }
    }

    @Test func garbageOfSeveralLinesAfterTheLastWholeLineIsSetAsideWhole() throws {
        // What a power loss can leave when a file grew but its blocks were never written: any bytes, newlines
        // included. None of it reads as an entry, so all of it is the unfinished tail.
        var figures = Figures(suite: "torn and corrupt files", test: #function)
        defer { figures.record() }
        let fixture = try Fixture()
        var tails: [(String, [UInt8])] = [
            ("two garbage lines", Array("garbage\nmore garbage".utf8)),
            ("zeros, a newline, zeros", [UInt8](repeating: 0, count: 100) + [0x0A] + [UInt8](repeating: 0, count: 100)),
            (
                "half a line, a newline, half a line",
                Array(fixture.nextLine.prefix(60)) + [0x0A] + Array(fixture.nextLine.prefix(90))
            ),
        ]
        for seed in Reliability.seeds("garbage-lines", fast: 20, long: 500) {
            var random = SeededRandom(seed: seed)
            let garbage = (0..<Int.random(in: 2...3000, using: &random)).map { _ in
                random.chance(0.02) ? UInt8(0x0A) : UInt8.random(in: 0...255, using: &random)
            }
            tails.append(("seeded garbage lines \(seed.seedText)", garbage))
        }
        for (name, tail) in tails {
            if !(try expectTornTailSetAside(fixture, tail: tail, what: name, figures: &figures)) { return }
        }
    }

    @Test func corruptionInTheMiddleIsReportedWithItsLineAndNothingIsDropped() throws {
        var figures = Figures(suite: "torn and corrupt files", test: #function)
        defer { figures.record() }
        let fixture = try Fixture()
        let lines = fixture.lines(of: fixture.whole)
        for seed in Reliability.seeds("middle-corruption", fast: 60, long: 2000) {
            var random = SeededRandom(seed: seed)
            // Any whole line but the last (a damaged last line is the torn-tail case).
            let index = Int.random(in: 0..<(lines.count - 1), using: &random)
            var damaged = lines
            var line = lines[index]
            let kind = Int.random(in: 0..<7, using: &random)
            let what: String
            switch kind {
            case 0:
                let at = Int.random(in: 0..<line.count, using: &random)
                line[at] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
                what = "bit flip at byte \(at)"
            case 1:
                let at = Int.random(in: 0..<line.count, using: &random)
                let count = min(line.count - at, Int.random(in: 1...16, using: &random))
                for offset in at..<(at + count) { line[offset] = UInt8.random(in: 0x20...0x7E, using: &random) }
                what = "\(count) bytes overwritten at \(at)"
            case 2:
                let at = Int.random(in: 0..<line.count, using: &random)
                let count = min(line.count - at, Int.random(in: 1...16, using: &random))
                line.removeSubrange(at..<(at + count))
                what = "\(count) bytes deleted at \(at)"
            case 3:
                let at = Int.random(in: 0...line.count, using: &random)
                line.insert(contentsOf: Array("xyz".utf8), at: at)
                what = "bytes inserted at \(at)"
            case 4:
                let at = Int.random(in: 1..<line.count, using: &random)
                line.insert(0x0A, at: at)
                what = "a newline inserted at \(at)"
            case 5:
                line = [UInt8](repeating: 0, count: line.count)
                what = "the line zeroed"
            default:
                damaged.insert(line, at: index)
                what = "the line duplicated"
            }
            if kind != 6 { damaged[index] = line }
            let bytes: [UInt8] = damaged.flatMap { $0 + [UInt8(0x0A)] }
            // A damage that changed nothing proves nothing.
            if bytes == fixture.whole { continue }
            try fixture.write(bytes)
            figures.runs += 1
            figures.faults += 1
            let context =
                "line \(index + 1): \(what); \(Reliability.replayHint(seed: seed, test: "corruptionInTheMiddleIsReportedWithItsLineAndNothingIsDropped"))"
            do {
                let ledger = try fixture.open()
                // It loaded: the damaged line still reads as an entry. `verify` must name it.
                let report = try ledger.verify(receiptCheck: nil)
                // At the damaged line itself (a duplicate is named where it repeats; a MAC spelled in capitals is
                // a change of its own line, even though its digits spell the right MAC).
                let lineNumbers = Set(report.problems.compactMap(\.line))
                let expectedLine = kind == 6 ? index + 2 : index + 1
                if !lineNumbers.contains(expectedLine) {
                    Issue.record(
                        "verify does not name line \(expectedLine): \(report.problems.map(\.description)); \(context)")
                    figures.failures += 1
                }
                #expect(
                    ledger.notices.allSatisfy { if case .tornTailMovedAside = $0 { false } else { true } }, "\(context)"
                )
            } catch let error as LedgerError {
                // Unreadable, or read and not verifying (a signed line's MAC or chain): named at its line either
                // way (a duplicated line where it repeats).
                switch error {
                case .corruptLine(let file, let line, _), .brokenChain(let file, let line, _):
                    let named = line == index + 1 || (kind == 6 && line == index + 2)
                    #expect(file == fixture.file && named, "named line \(line); \(context)")
                    #expect(
                        error.description.contains("left untouched")
                            || error.description.contains("nothing was used or written"), "\(context)")
                default:
                    Issue.record("expected the corrupt line to be named, got \(error); \(context)")
                    figures.failures += 1
                    continue
                }
            }
            #expect(fixture.bytes == bytes, "the file was changed; \(context)")
            #expect(fixture.tornFiles().isEmpty, "something was set aside; \(context)")
            figures.entriesChecked += lines.count
        }
    }

    @Test func aDamagedLastWholeLineIsNeverDroppedSilently() throws {
        // A whole last line (newline and all) that no longer reads cannot be told from a torn write by its bytes:
        // it is moved aside, said so, and `verify` reports the entry the head signed as cut off.
        let fixture = try Fixture()
        var lines = fixture.lines(of: fixture.whole)
        lines[lines.count - 1][5] = 0x00
        try fixture.write(lines.flatMap { $0 + [UInt8(0x0A)] })
        let ledger = try fixture.open()
        // Two things said: the line set aside, and the head (which signed it) left as it is, beyond the file.
        #expect(ledger.notices.count == 2, "\(ledger.notices)")
        #expect(ledger.notices.contains { if case .tornTailMovedAside = $0 { true } else { false } })
        #expect(
            ledger.notices.contains {
                if case .headNotKept(let reason) = $0 { reason.contains("beyond") } else { false }
            })
        let report = try ledger.verify(receiptCheck: nil)
        #expect(report.problems.contains { $0.kind == .truncated }, "\(report.problems)")
    }
}
