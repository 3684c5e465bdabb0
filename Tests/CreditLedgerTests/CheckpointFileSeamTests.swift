import CreditLedger
import DurableFiles
import Foundation
import Testing

@testable import LedgerEntries
@testable import LedgerSync

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 37: the checkpoint and its ids file are written through the ledger's file seam (and the counter's), so a
/// file layer that fails reaches them: a checkpoint that cannot be written loses nothing, leaves nothing behind,
/// and only means the next counter reads more.
@Suite struct CheckpointFileSeamTests {
    /// The names in the data directory that are not the ledger's own (temporaries left behind).
    private func leftovers(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix(".") }
    }

    @Test func theLedgerWritesItsCheckpointThroughItsFileSystem() throws {
        let fixture = try LedgerFixture(prefix: "seam")
        let disk = FaultyFileSystem()
        let ledger = try Ledger.openSigned(
            directory: fixture.directory, clock: fixture.clock, ids: fixture.ids, fileSystem: disk)
        try ledger.append(chargeDraft("c1", pence: 1))
        #expect(
            disk.opened.contains { $0.path.hasPrefix(fixture.directory + "/") && $0.path.contains("checkpoint") },
            "the checkpoint was written around the ledger's file system")
        #expect(LedgerCheckpoint.counter(directory: fixture.directory) == .counted(ledger.balance, newEntries: 0))
    }

    @Test(arguments: [FaultyFileSystem.Call.rename, .write])
    func aCheckpointThatCannotBeWrittenLosesNothing(_ failing: FaultyFileSystem.Call) throws {
        let fixture = try LedgerFixture(prefix: "seam")
        let disk = FaultyFileSystem()
        let ledger = try Ledger.openSigned(
            directory: fixture.directory, clock: fixture.clock, ids: fixture.ids, fileSystem: disk)
        try ledger.append(chargeDraft("c1", pence: 1))
        let checkpoint = try Data(contentsOf: URL(fileURLWithPath: fixture.directory + "/checkpoint"))
        // The entry's own write must succeed: the fault is armed for what follows it, the checkpoint's.
        disk.beforeOpen = { path, _ in
            if path.contains("checkpoint") { disk.failing = (failing, EIO) } else { disk.failing = nil }
        }
        try ledger.append(chargeDraft("c2", pence: 2))
        disk.beforeOpen = nil
        disk.failing = nil
        #expect(ledger.balance == MicroCredits(5_000_000 - 30_000))
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: fixture.directory + "/checkpoint")) == checkpoint,
            "the old checkpoint was changed")
        #expect(try leftovers(in: fixture.directory).filter { $0.contains("checkpoint") }.isEmpty)
        // The next counter never says another balance (it takes the old checkpoint forward, or reads whole), and
        // a full load agrees, and writes the checkpoint again.
        if case .counted(let counted, _) = LedgerCheckpoint.counter(directory: fixture.directory) {
            #expect(counted == ledger.balance)
        }
        #expect(try fixture.openSigned().balance == ledger.balance)
        #expect(LedgerCheckpoint.counter(directory: fixture.directory) == .counted(ledger.balance, newEntries: 0))
    }

    @Test func theCounterWritesWhatItTookForwardThroughItsFileSystem() throws {
        // Device A with its checkpoint; device B joined from it charges, and another process merges B's lines into
        // A's directory without writing A's checkpoint: the counter takes it forward by those lines.
        let a = try LedgerFixture(prefix: "a")
        let ledgerA = try a.openSigned()
        try ledgerA.append(chargeDraft("a-c1", pence: 1))
        let b = try LedgerFixture(prefix: "b")
        try AccountSync.join(directory: b.directory, account: a.directory, ids: b.ids)
        let ledgerB = try b.openSigned()
        try ledgerB.append(chargeDraft("b-c1", pence: 2))
        _ = try AccountSync(try a.openSigned()).merge(files: [b.file(of: ledgerB)])
        let checkpoint = try Data(contentsOf: URL(fileURLWithPath: a.directory + "/checkpoint"))
        let expected = MicroCredits(5_000_000 - 30_000)
        let disk = FaultyFileSystem()
        disk.failing = (.rename, EIO)
        #expect(LedgerCheckpoint.counter(directory: a.directory, fileSystem: disk) == .counted(expected, newEntries: 1))
        #expect(disk.opened.contains { $0.path.contains("checkpoint") }, "the counter wrote around its file system")
        #expect(try Data(contentsOf: URL(fileURLWithPath: a.directory + "/checkpoint")) == checkpoint)
        #expect(try leftovers(in: a.directory).filter { $0.contains("checkpoint") }.isEmpty)
        // With a file system that works, the counter writes it forward, and the next one reads nothing new.
        #expect(LedgerCheckpoint.counter(directory: a.directory) == .counted(expected, newEntries: 1))
        #expect(LedgerCheckpoint.counter(directory: a.directory) == .counted(expected, newEntries: 0))
    }
}
