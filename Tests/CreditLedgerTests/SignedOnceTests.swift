import CreditLedger
import DurableFiles
import Foundation
import Signing
import Testing

@testable import LedgerEntries

/// A data directory that was signed stays signed: its files stripped of their MACs do not read as a ledger made
/// before signing, a file none of whose lines reads is not set aside whole (and the ledger made again from its
/// opening), and a lost key is not replaced by a new one. Each refusal leaves the directory as it was.
@Suite struct SignedOnceTests {
    /// A signed ledger with two charges (so its signed head exists).
    struct World {
        let fixture: LedgerFixture
        let ledger: Ledger
        var directory: String { fixture.directory }
        var ledgerFile: String { fixture.file(of: ledger) }

        init() throws {
            fixture = try LedgerFixture(prefix: "signed-once")
            ledger = try fixture.openSigned()
            try ledger.append(chargeDraft("c1", pence: 5))
            try ledger.append(chargeDraft("c2", pence: 7))
        }

        /// The file's lines without their `prev` and `mac`, and the opening's amount raised: what the key is not
        /// needed for.
        func strippedLines(of path: String) throws -> [String] {
            let text = String(decoding: try readBytes(path), as: UTF8.self)
            return text.split(separator: "\n").map { line in
                var line = String(line)
                if let chain = line.range(of: ",\"prev\":") { line = String(line[..<chain.lowerBound]) + "}" }
                return line.replacingOccurrences(
                    of: "\"amount\":5000000,\"balanceAfter\":5000000",
                    with: "\"amount\":900000000,\"balanceAfter\":900000000")
            }
        }
    }

    @Test func theOwnFileStrippedOfItsMACsIsRefusedNotReadAsMadeBeforeSigning() throws {
        let world = try World()
        let stripped = try world.strippedLines(of: world.ledgerFile)
        #expect(stripped.allSatisfy { !$0.contains("\"mac\"") })
        let bytes = Array((stripped.joined(separator: "\n") + "\n").utf8)
        try writeBytes(bytes, to: world.ledgerFile)
        #expect(throws: LedgerError.self) { _ = try world.fixture.openSigned() }
        do {
            _ = try world.fixture.openSigned()
        } catch {
            #expect("\(error)".contains("line 1"), "\(error)")
            #expect("\(error)".contains("no MAC"), "\(error)")
        }
        #expect(try readBytes(world.ledgerFile) == bytes, "the file is left as it was")
    }

    @Test func anotherDevicesFileWithoutMACsIsRefused() throws {
        let world = try World()
        let other = "0ther000-0000-4000-8000-000000000002"
        let lines = try world.strippedLines(of: world.ledgerFile).map {
            $0.replacingOccurrences(of: world.ledger.device, with: other)
                .replacingOccurrences(of: "\"id\":\"opening\"", with: "\"id\":\"other-opening\"")
        }
        let path = world.ledger.path(forDevice: other)
        try writeBytes(Array((lines.joined(separator: "\n") + "\n").utf8), to: path)
        do {
            let reopened = try world.fixture.openSigned()
            Issue.record("read as unsigned, balance \(reopened.balance.formatted)")
        } catch {
            #expect("\(error)".contains(path), "\(error)")
            #expect("\(error)".contains("no MAC"), "\(error)")
        }
    }

    @Test func aFileNoLineOfWhichReadsIsNotSetAsideWholeAndMadeAgain() throws {
        let world = try World()
        let crlf = Array(
            String(decoding: try readBytes(world.ledgerFile), as: UTF8.self)
                .replacingOccurrences(of: "\n", with: "\r\n").utf8)
        try writeBytes(crlf, to: world.ledgerFile)
        do {
            let reopened = try world.fixture.openSigned()
            Issue.record("opened with balance \(reopened.balance.formatted) and \(reopened.entries.count) entries")
        } catch {
            #expect("\(error)".contains("line 1"), "\(error)")
        }
        #expect(try readBytes(world.ledgerFile) == crlf, "nothing set aside, no opening written again")
        let torn = world.directory + "/torn"
        #expect((try? FileManager.default.contentsOfDirectory(atPath: torn))?.isEmpty ?? true)
    }

    @Test func aLostLedgerKeyIsNotReplaced() throws {
        let world = try World()
        let key = LedgerKeys.macKeyPath(in: world.directory)
        try FileManager.default.removeItem(atPath: key)
        do {
            _ = try world.fixture.openSigned()
            Issue.record("opened with a new key")
        } catch {
            #expect("\(error)".contains(key), "\(error)")
            #expect("\(error)".contains("missing"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: key), "no new key was made")
    }

    @Test func aLedgerMadeBeforeSigningStillOpensAndGetsItsKeys() throws {
        let fixture = try LedgerFixture(prefix: "before-signing")
        let unsigned = try fixture.open()
        try unsigned.append(chargeDraft("c1", pence: 5))
        let reopened = try fixture.openSigned()
        #expect(!reopened.isSigned)
        #expect(reopened.entries.count == 2)
        #expect(FileManager.default.fileExists(atPath: LedgerKeys.macKeyPath(in: fixture.directory)))
    }
}

extension SignedOnceTests {
    @Test func aKeyFileFarLargerThanAKeyIsRefusedUnread() throws {
        let world = try World()
        let key = LedgerKeys.macKeyPath(in: world.directory)
        let handle = try #require(FileHandle(forWritingAtPath: key))
        try handle.truncate(atOffset: 64 * 1024 * 1024)
        try handle.close()
        do {
            _ = try world.fixture.openSigned()
            Issue.record("a 64 MiB key file was taken as a key")
        } catch {
            #expect("\(error)".contains(key), "\(error)")
            #expect("\(error)".contains("no key"), "\(error)")
        }
    }

    @Test func aWrongKeySaysSoBesideTampering() throws {
        let world = try World()
        let key = LedgerKeys.macKeyPath(in: world.directory)
        try writeBytes([UInt8](repeating: 7, count: 32), to: key)
        #expect(chmod(key, 0o600) == 0)
        do {
            _ = try world.fixture.openSigned()
            Issue.record("opened under another key")
        } catch {
            #expect("\(error)".contains("line 1"), "\(error)")
            #expect("\(error)".contains("is not the key it was signed with"), "\(error)")
        }
    }
}

extension SignedOnceTests {
    @Test func anEntryThatWouldOverflowTheBalanceIsToldAndLeftOutOfEverySum() throws {
        let world = try World()
        let before = world.ledger.balance
        let last = try #require(world.ledger.lastEntry(of: world.ledger.device))
        // A refund of the largest amount there is, signed with the key and chained on: only the key can make one.
        var forged = last
        forged.id = "forged-refund"
        forged.kind = .refund
        forged.refersTo = last.id
        forged.sequence = last.sequence + 1
        forged.amount = MicroCredits(Int64.max)
        forged.prev = last.mac
        forged.mac = nil
        let key = try LedgerKeys.load(from: world.directory).macKey
        let body = EntryCodec.body(of: forged)
        let mac = Hex.encode(try HMACSHA256.authenticationCode(for: body, key: key))
        try appendBytes(EntryCodec.line(body: body, mac: mac), to: world.ledgerFile)
        let reopened = try world.fixture.openSigned()
        #expect(reopened.balance == before, "the entry is not counted")
        let told = reopened.notices.first { if case .amountOutOfRange = $0 { true } else { false } }
        let words = try #require(told, "\(reopened.notices)").description
        #expect(words.contains(world.ledgerFile) && words.contains("line 4") && words.contains("forged-refund"))
        let totals = try LedgerTotals(of: reopened)
        let recomputed = try totals.opening.adding(totals.toppedUp).subtracting(totals.used)
        #expect(recomputed == before, "no sum takes it")
        #expect(try FeatureTakings.list(in: reopened).allSatisfy { $0.net.rawValue > Int64.min / 2 })
    }
}
