import CreditLedger
import Foundation
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

    /// A good file's verdicts taken the quick way (plain lines summed from their figures, its places recorded at
    /// once) give the report the line-by-line way gives: with simulated top-ups and a reversal among
    /// the charges, a file verified beside a copy of itself, and beside a file with one of its ids in other
    /// content (the duplicate sends it the line-by-line way).
    @Test func aGoodFilesQuickVerdictsAreTheLineByLineOnes() throws {
        let (fixture, ledger) = try ledgerWithLines(300)
        for (index, reference) in ["SIM-1", "SIM-2", "SIM-3"].enumerated() {
            try ledger.append(
                EntryDraft(
                    id: "topup-simulated-\(reference)", kind: .topup, amount: MicroCredits(5_000_000),
                    text: "Top-up", reference: reference, product: "p"))
            try ledger.append(chargeDraft("after-\(index)", pence: 3))
        }
        try ledger.append(
            EntryDraft(
                id: "reversal-SIM-2", kind: .reversal, amount: MicroCredits(-5_000_000),
                refersTo: "topup-simulated-SIM-2",
                reference: "SIM-2", product: "p"))
        let path = fixture.file(of: ledger)
        let keys = try LedgerKeys.load(from: fixture.directory)
        let verifier = LedgerVerifier(macKey: keys.macKey, headPublicKey: keys.headKey.publicKey, receiptCheck: nil)
        let inParts = try withSmallParts { try LedgerVerifier.read(path, macKey: keys.macKey) }
        #expect(inParts.figures?.count == inParts.lines.count)
        let whole = try LedgerVerifier.read(path)
        #expect(whole.figures == nil)
        for (name, reads) in [
            ("alone", ([inParts], [whole])), ("beside itself", ([inParts, inParts], [whole, whole])),
        ] {
            let quick = try verifier.verify(read: reads.0, heads: [:])
            let slow = try verifier.verify(read: reads.1, heads: [:])
            #expect(quick.problems == slow.problems, "\(name)")
            #expect(quick.balance == slow.balance && quick.entriesChecked == slow.entriesChecked, "\(name)")
            #expect(quick.simulatedTopUps == slow.simulatedTopUps, "\(name)")
        }
        // Another device with the same keys, its file holding one of these ids with another amount.
        let other = try LedgerFixture(prefix: "other")
        try FileManager.default.copyItem(atPath: fixture.directory + "/keys", toPath: other.directory + "/keys")
        let otherLedger = try other.openSigned()
        try otherLedger.append(chargeDraft("par-7", pence: 99))
        let otherRead = try LedgerVerifier.read(other.file(of: otherLedger), macKey: keys.macKey)
        let quick = try verifier.verify(read: [otherRead, inParts], heads: [:])
        let slow = try verifier.verify(read: [otherRead, whole], heads: [:])
        #expect(quick.problems.contains { $0.kind == .duplicated })
        #expect(quick.problems == slow.problems && quick.balance == slow.balance)
    }
}
