import CreditLedger
import Testing

@testable import LedgerEntries

/// Issue 38: a parallel first read checks the chain on its threads (each part's links there, the parts' borders
/// once they are together) and counts the parts as they come; it finds exactly what the one-thread read finds.
extension ParallelLoadTests {
    /// The charges spread over several features, so the counting's feature codes and takings have something to get
    /// wrong.
    private func ledgerOfFeatures(_ count: Int) throws -> (LedgerFixture, Ledger) {
        let fixture = try LedgerFixture(prefix: "chain")
        let ledger = try fixture.openSigned()
        let features = ["debrief", "transcript", "readNote", "saveToVault"]
        try ledger.appendBatch(
            (1...count).map {
                chargeDraft("c-\($0)", pence: Int64($0 % 7 + 1), feature: features[($0 / 13) % 4], subject: "n-\($0)")
            })
        try ledger.decline("c-7", reason: .test)
        try ledger.decline("c-\(count - 10)", reason: .notNeeded)
        return (fixture, ledger)
    }

    @Test func theCountAlongGivesWhatTheOneThreadCountGives() throws {
        let (fixture, ledger) = try ledgerOfFeatures(300)
        let parallel = try withSmallParts { try fixture.openSigned() }
        #expect(parallel.entries == ledger.entries)
        #expect(parallel.balance == ledger.balance)
        #expect(try LedgerTotals(of: parallel) == LedgerTotals(of: ledger))
        #expect(try FeatureTakings.list(in: parallel) == FeatureTakings.list(in: ledger))
        // Every id, in every part, finds its entry.
        for entry in ledger.entries { #expect(parallel.entry(id: entry.id) == entry) }
        #expect(parallel.head(of: parallel.device)?.sequence == ledger.head(of: ledger.device)?.sequence)
        // The next append chains on from what the parallel read took in.
        try parallel.append(chargeDraft("after", pence: 1))
        #expect(try fixture.openSigned().balance == parallel.balance)
    }

    /// Writes `damaged` over `path` and expects the signed open to find a broken chain at `line`, in parts as on
    /// one thread, with the same error.
    private func expectBreak(
        at line: Int, in damaged: [[UInt8]], of fixture: LedgerFixture, path: String, _ name: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try writeLines(damaged, to: path)
        let serial = expectAnyLedgerError { _ = try fixture.openSigned() }
        let parallel = withSmallParts { expectAnyLedgerError { _ = try fixture.openSigned() } }
        guard case .brokenChain(_, let found, _)? = parallel else {
            Issue.record("\(name): got \(String(describing: parallel))", sourceLocation: sourceLocation)
            return
        }
        #expect(found == line, "\(name)", sourceLocation: sourceLocation)
        #expect(parallel == serial, "\(name)", sourceLocation: sourceLocation)
    }

    @Test func aLineTakenOutIsFoundWhereverThePartsAreCut() throws {
        let (fixture, ledger) = try ledgerOfFeatures(240)
        let path = fixture.file(of: ledger)
        let original = try lines(of: path)
        // Every third line: the parts' borders fall among them.
        for removed in stride(from: 2, to: original.count, by: 3) {
            var damaged = original
            damaged.remove(at: removed - 1)
            try expectBreak(at: removed, in: damaged, of: fixture, path: path, "line \(removed) taken out")
        }
        try writeLines(original, to: path)
    }

    @Test func twoLinesSwappedAreFoundWhereverThePartsAreCut() throws {
        let (fixture, ledger) = try ledgerOfFeatures(240)
        let path = fixture.file(of: ledger)
        let original = try lines(of: path)
        for first in stride(from: 2, to: original.count - 1, by: 5) {
            var damaged = original
            damaged.swapAt(first - 1, first)
            try expectBreak(at: first, in: damaged, of: fixture, path: path, "lines \(first) and \(first + 1) swapped")
        }
        try writeLines(original, to: path)
    }
}
