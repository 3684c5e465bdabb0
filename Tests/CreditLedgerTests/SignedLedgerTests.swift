import CreditLedger
import Foundation
import Signing
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct SignedLedgerTests {
    @Test func openSignedMakesOwnerOnlyKeysAndAHead() throws {
        let fixture = try LedgerFixture()
        let ledger = try fixture.openSigned()
        #expect(ledger.isSigned)
        let macKeyPath = LedgerKeys.macKeyPath(in: fixture.directory)
        let headKeyPath = LedgerKeys.headKeyPath(in: fixture.directory)
        #expect(macKeyPath == fixture.directory + "/keys/ledger.key")
        #expect(try fileMode(macKeyPath) == 0o600)
        #expect(try fileMode(headKeyPath) == 0o600)
        #expect(try readBytes(macKeyPath).count == 32)
        #expect(exists(LedgerKeys.headPublicKeyPath(in: fixture.directory)))
        let head = try #require(try SignedHead.read(in: fixture.directory, device: ledger.device))
        let opening = try #require(ledger.entries.first)
        #expect(head.device == ledger.device)
        #expect(head.sequence == 1)
        #expect(head.mac == opening.mac)
        #expect(head.balance == 5_000_000)
        #expect(head.time == opening.time.iso8601)
        let keys = try LedgerKeys.load(from: fixture.directory)
        #expect(head.isValid(for: keys.headKey.publicKey))
        let publicKey = try P256PublicKey(
            pemRepresentation: try String(
                contentsOfFile: LedgerKeys.headPublicKeyPath(in: fixture.directory), encoding: .utf8))
        #expect(head.isValid(for: publicKey), "another device can check the head with the public key alone")
    }

    @Test func everyEntryIsChainedWithAnHMACOverItsExactBytes() throws {
        let fixture = try LedgerFixture()
        let ledger = try fixture.openSigned()
        for index in 1...4 {
            try ledger.append(chargeDraft("c-\(index)", pence: Int64(index), subject: "ünïcode \"\(index)\""))
        }
        let keys = try LedgerKeys.load(from: fixture.directory)
        var previous = String(repeating: "0", count: 64)
        let fileLines = try lines(of: fixture.file(of: ledger))
        #expect(fileLines.count == 5)
        for (index, line) in fileLines.enumerated() {
            let entry = try EntryCodec.parse(line)
            #expect(entry.sequence == Int64(index + 1))
            #expect(entry.prev == previous)
            let prefix = try #require(line.withUnsafeBufferPointer { EntryCodec.macCoveredPrefix(of: $0) })
            let expected = try HMACSHA256.authenticationCode(for: Array(line[0..<prefix]), key: keys.macKey)
            #expect(entry.mac == Hex.encode(expected))
            previous = try #require(entry.mac)
        }
        // The head follows every append.
        let head = try #require(try SignedHead.read(in: fixture.directory, device: ledger.device))
        #expect(head.sequence == 5)
        #expect(head.mac == previous)
        #expect(head.balance == ledger.balance.rawValue)
    }

    @Test func aCleanChainVerifies() throws {
        let fixture = try LedgerFixture()
        let ledger = try fixture.openSigned()
        for index in 1...19 { try ledger.append(chargeDraft("c-\(index)", pence: 1)) }
        try ledger.decline("c-3", reason: .test)
        let report = try ledger.verify(receiptCheck: nil)
        #expect(report.isClean)
        #expect(report.problems == [])
        #expect(report.entriesChecked == 21)
        #expect(report.devices == [ledger.device])
        #expect(report.balance == ledger.balance)
        #expect(report.notes == [])
        // Reopening changes nothing, keys included.
        let key = try readBytes(LedgerKeys.macKeyPath(in: fixture.directory))
        let reopened = try fixture.openSigned()
        #expect(!reopened.wasCreated)
        #expect(try readBytes(LedgerKeys.macKeyPath(in: fixture.directory)) == key)
        #expect(try reopened.verify(receiptCheck: nil).isClean)
    }

    @Test func anUnsignedLedgerStaysUnsignedUntilUpgraded() throws {
        let fixture = try LedgerFixture()
        let unsigned = try fixture.open()
        try unsigned.append(chargeDraft("c-1", pence: 5))
        let before = try readBytes(fixture.file(of: unsigned))
        let opened = try fixture.openSigned()
        #expect(!opened.isSigned, "never signed silently")
        try opened.append(chargeDraft("c-2", pence: 1))
        #expect(try EntryCodec.parse(try lines(of: fixture.file(of: opened))[2]).mac == nil)
        #expect(Array(try readBytes(fixture.file(of: opened)).prefix(before.count)) == before)
        let report = try opened.verify(receiptCheck: nil)
        #expect(report.problems.map(\.kind) == [.unsigned, .unsigned, .unsigned])
        #expect(report.problems.map(\.line) == [1, 2, 3])
    }

    @Test func upgradingAnUnsignedLedgerSignsItKeepsABackupAndVerifies() throws {
        let fixture = try LedgerFixture()
        let unsigned = try Ledger(
            directory: fixture.directory, clock: fixture.clock, ids: fixture.ids, authenticator: nil)
        try unsigned.append(chargeDraft("c-1", pence: 5, subject: "n1"))
        try unsigned.decline("c-1", reason: .other("wrong note"))
        try unsigned.append(chargeDraft("c-2", pence: 3))
        #expect(!unsigned.isSigned)
        let path = fixture.file(of: unsigned)
        let original = try readBytes(path)
        let originalEntries = unsigned.entries
        let keys = try LedgerKeys.loadOrCreate(in: fixture.directory)

        let report = try unsigned.upgradeToSigned(keys: keys)
        #expect(report.entriesSigned == 4)
        #expect(report.file == path)
        #expect(report.backup.hasPrefix(path + ".unsigned-"))
        #expect(try readBytes(report.backup) == original, "the unsigned file is kept as it was")
        // The same entries, each now with prev and mac.
        let signedLines = try lines(of: path)
        let signedEntries = try signedLines.map { try EntryCodec.parse($0) }
        #expect(signedEntries.count == 4)
        for (old, new) in zip(originalEntries, signedEntries) {
            var stripped = new
            stripped.prev = nil
            stripped.mac = nil
            #expect(stripped == old)
            #expect(new.mac != nil && new.prev != nil)
        }
        let head = try #require(try SignedHead.read(in: fixture.directory, device: unsigned.device))
        #expect(head.sequence == 4 && head.mac == signedEntries.last?.mac)

        let reopened = try fixture.openSigned()
        #expect(reopened.isSigned)
        #expect(reopened.balance == MicroCredits(4_970_000))
        let verification = try reopened.verify(receiptCheck: nil)
        #expect(verification.problems == [])
        #expect(verification.entriesChecked == 4)
        // It carries on signed, and still verifies.
        try reopened.append(chargeDraft("c-3", pence: 1))
        #expect(try reopened.verify(receiptCheck: nil).problems == [])
        // Upgrading again is refused and changes nothing.
        let now = try readBytes(path)
        _ = expectAnyLedgerError { _ = try reopened.upgradeToSigned(keys: keys) }
        #expect(try readBytes(path) == now)
    }

    @Test func theUpgradedInstanceKeepsWorkingOnTheNewFile() throws {
        let fixture = try LedgerFixture()
        let ledger = try Ledger(
            directory: fixture.directory, clock: fixture.clock, ids: fixture.ids, authenticator: nil)
        try ledger.append(chargeDraft("c-1", pence: 5))
        let keys = try LedgerKeys.loadOrCreate(in: fixture.directory)
        let report = try ledger.upgradeToSigned(keys: keys)
        let backup = try readBytes(report.backup)
        #expect(ledger.isSigned)
        try ledger.refresh()
        #expect(ledger.entries.map(\.id) == ["opening", "c-1"])
        try ledger.append(chargeDraft("c-2", pence: 1))
        #expect(try readBytes(report.backup) == backup, "nothing is written into the backup")
        #expect(try lines(of: report.file).count == 3)
        #expect(ledger.notices.isEmpty)
        #expect(exists(fixture.directory + "/torn") == false)
        let reopened = try fixture.openSigned()
        #expect(reopened.entries.map(\.id) == ["opening", "c-1", "c-2"])
        #expect(try reopened.verify(receiptCheck: nil).problems == [])
    }

    @Test(arguments: ["ledger.key", "head-signing.pem"])
    func aKeyFileReadableByOthersIsRefused(_ name: String) throws {
        let fixture = try LedgerFixture()
        _ = try fixture.openSigned()
        let path = fixture.directory + "/keys/" + name
        #expect(chmod(path, 0o644) == 0)
        do {
            _ = try fixture.openSigned()
            Issue.record("a key file with mode 0644 was accepted")
        } catch let error as SigningError {
            #expect(error.code == .insecureKeyFile)
            #expect(error.message.contains(path))
            #expect(error.message.contains("chmod 600"))
        }
        #expect(chmod(path, 0o600) == 0)
        #expect(try fixture.openSigned().isSigned)
    }

    @Test func aSignedLedgerWithoutItsKeyRefusesToAppend() throws {
        let fixture = try LedgerFixture()
        let signed = try fixture.openSigned()
        let before = try readBytes(fixture.file(of: signed))
        let plain = try fixture.open()
        #expect(plain.isSigned)
        let error = expectAnyLedgerError { try plain.append(chargeDraft("c-1", pence: 1)) }
        #expect(error?.description.contains("no ledger key") == true)
        #expect(try readBytes(fixture.file(of: signed)) == before)
    }
}
