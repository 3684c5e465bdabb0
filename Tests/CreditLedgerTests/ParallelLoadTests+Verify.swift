import CreditLedger
import Testing

@testable import LedgerEntries
@testable import LedgerVerification

/// Issue 38: `credit verify` reads a large file in parts, each line parsed and its MAC checked on its part's thread;
/// it reports exactly what reading the file whole and checking the MACs after reports.
extension ParallelLoadTests {
    /// What verifying `path` finds, read in parts (small ones, so a small file is read so) and read whole.
    private func bothReports(_ fixture: LedgerFixture, _ ledger: Ledger, _ path: String) throws -> (
        parts: VerificationReport, whole: VerificationReport
    ) {
        let keys = try LedgerKeys.load(from: fixture.directory)
        let verifier = LedgerVerifier(macKey: keys.macKey, headPublicKey: keys.headKey.publicKey, receiptCheck: nil)
        var heads: [String: SignedHead] = [:]
        heads[ledger.device] = try SignedHead.read(in: fixture.directory, device: ledger.device)
        let inParts = try withSmallParts { try LedgerVerifier.read(path, macKey: keys.macKey) }
        #expect(inParts.bytes.isEmpty, "the file was read in parts")
        let whole = try LedgerVerifier.read(path)
        #expect(inParts.lines.map(\.entry) == whole.lines.map(\.entry))
        #expect(inParts.lines.map(\.number) == whole.lines.map(\.number))
        #expect(inParts.tornAt == whole.tornAt)
        #expect(
            try LedgerVerifier.checkMACs(of: inParts, key: keys.macKey)
                == LedgerVerifier.checkMACs(of: whole, key: keys.macKey))
        return (
            try verifier.verify(read: [inParts], heads: heads, requireHeads: [ledger.device]),
            try verifier.verify(read: [whole], heads: heads, requireHeads: [ledger.device])
        )
    }

    @Test func aFileReadInPartsVerifiesAsOneReadWhole() throws {
        let (fixture, ledger) = try ledgerWithLines(300)
        let path = fixture.file(of: ledger)
        let clean = try bothReports(fixture, ledger, path)
        #expect(clean.parts.isClean && clean.parts.entriesChecked == ledger.entries.count)
        #expect(clean.parts.balance == ledger.balance)
        let original = try lines(of: path)
        // A changed amount, a line taken out, an unreadable line, each in several places; a cut last line.
        var damaged: [(String, [UInt8])] = []
        for at in [1, 77, 150, 222, 299] {
            var changed = original
            if let digit = changed[at].firstIndex(of: UInt8(ascii: "9"))
                ?? changed[at].firstIndex(of: UInt8(ascii: "1"))
            {
                changed[at][digit] = UInt8(ascii: "8")
            }
            damaged.append(("line \(at + 1) changed", changed.flatMap { $0 + [0x0A] }))
            var removed = original
            removed.remove(at: at)
            damaged.append(("line \(at + 1) taken out", removed.flatMap { $0 + [0x0A] }))
            var unreadable = original
            unreadable[at] = Array("{\"broken\":1}".utf8)
            damaged.append(("line \(at + 1) unreadable", unreadable.flatMap { $0 + [0x0A] }))
        }
        damaged.append(("the last line cut", Array(original.flatMap { $0 + [0x0A] }.dropLast(40))))
        for (name, bytes) in damaged {
            try writeBytes(bytes, to: path)
            let reports = try bothReports(fixture, ledger, path)
            #expect(!reports.whole.isClean, "\(name)")
            #expect(reports.parts.problems == reports.whole.problems, "\(name)")
            #expect(reports.parts.entriesChecked == reports.whole.entriesChecked, "\(name)")
            #expect(reports.parts.balance == reports.whole.balance, "\(name)")
        }
        try writeLines(original, to: path)
    }
}
