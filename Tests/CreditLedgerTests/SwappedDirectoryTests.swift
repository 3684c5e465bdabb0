import CreditLedger
import DurableFiles
import Foundation
import Platform
import Synchronization
import Testing

@testable import LedgerEntries
@testable import LedgerSync

/// Issue 35, item 1: a directory of the synced folder or of the data directory swapped for a link to a directory
/// elsewhere (`rename` with `RENAME_EXCHANGE`) between the moment it is opened and the writes receives nothing: the
/// writes go through the descriptors of the directories opened.
@Suite struct SwappedDirectoryTests {
    /// Device a with a charge, an empty synced folder, and an empty directory elsewhere for the links to point at.
    private func device() throws -> (
        a: LedgerFixture, folder: SyncFolder, elsewhere: String, temporary: TemporaryDirectory
    ) {
        let a = try LedgerFixture(prefix: "a")
        _ = try a.openSigned().append(chargeDraft("a-charge-1", pence: 10))
        let temporary = try TemporaryDirectory()
        let elsewhere = temporary.path + "/elsewhere"
        try FileManager.default.createDirectory(atPath: temporary.path + "/vault", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        return (a, SyncFolder(temporary.path + "/vault"), elsewhere, temporary)
    }

    private func sync(_ ledger: Ledger, _ folder: SyncFolder) throws -> SyncReport {
        var memo = SyncMemo()
        return try AccountSync(ledger).sync(through: folder, memo: &memo)
    }

    /// What the sync writes first in each directory of the folder: `account.json` in `credit/`, this device's
    /// file in `ledger/`, its head in `heads/`.
    private static func firstWritten(in swapped: String, device: String) -> String {
        switch swapped {
        case "credit": return "account.json"
        case "credit/ledger": return device + ".jsonl"
        default: return device + ".json"
        }
    }

    @Test(arguments: ["credit/heads", "credit/ledger", "credit"])
    func aFolderDirectorySwappedForALinkMidSyncReceivesNothing(_ swapped: String) throws {
        let (a, folder, elsewhere, temporary) = try device()
        defer { withExtendedLifetime(temporary) {} }
        let layer = SwappingFileSystem(swapping: folder.root + "/" + swapped, for: elsewhere)
        let ledger = try Ledger.openSigned(directory: a.directory, clock: a.clock, ids: a.ids, fileSystem: layer)
        let report = try sync(ledger, folder)
        #expect(layer.swapped, "the directory was swapped between its opening and the writes")
        #expect(report.ownFile == .sent)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty, "nothing written elsewhere")
        let written = layer.movedDirectory + "/" + Self.firstWritten(in: swapped, device: ledger.device)
        #expect(FileManager.default.fileExists(atPath: written), "written in the directory opened")
    }

    /// The control: the same swap with every call made by path (as before issue 35) does send the write elsewhere.
    @Test(arguments: ["credit/heads", "credit/ledger", "credit"])
    func theSameSwapSendsAWriteByPathElsewhere(_ swapped: String) throws {
        let (a, folder, elsewhere, temporary) = try device()
        defer { withExtendedLifetime(temporary) {} }
        let layer = SwappingFileSystem(swapping: folder.root + "/" + swapped, for: elsewhere, byPath: true)
        let ledger = try Ledger.openSigned(directory: a.directory, clock: a.clock, ids: a.ids, fileSystem: layer)
        _ = try? sync(ledger, folder)
        #expect(layer.swapped)
        let landed = try FileManager.default.contentsOfDirectory(atPath: elsewhere)
        #expect(landed.contains(Self.firstWritten(in: swapped, device: ledger.device)), "\(landed)")
    }

    /// The data directory: `heads/` or `ledger/` swapped during a charge. The directory elsewhere holds a copy of the
    /// device's file, as an attacker would put there for an append by path to land in.
    @Test(arguments: ["heads", "ledger"], [false, true])
    func aDataDirectorySwappedForALinkMidChargeReceivesNothing(_ swapped: String, byPath: Bool) throws {
        let (a, _, elsewhere, temporary) = try device()
        defer { withExtendedLifetime(temporary) {} }
        let device = try a.openSigned().device
        if swapped == "ledger" {
            try FileManager.default.copyItem(
                atPath: a.directory + "/ledger/\(device).jsonl", toPath: elsewhere + "/\(device).jsonl")
        }
        let before = DirectorySnapshot.take(elsewhere)
        let layer = SwappingFileSystem(swapping: a.directory + "/" + swapped, for: elsewhere, byPath: byPath)
        let ledger = try Ledger.openSigned(directory: a.directory, clock: a.clock, ids: a.ids, fileSystem: layer)
        let charged = (try? ledger.append(chargeDraft("a-charge-2", pence: 3))) != nil
        #expect(layer.swapped)
        if byPath {
            #expect(DirectorySnapshot.take(elsewhere) != before, "the control: a write by path lands elsewhere")
        } else {
            #expect(charged, "the charge is written in the directory opened")
            #expect(DirectorySnapshot.take(elsewhere) == before, "nothing written elsewhere")
            let file = layer.movedDirectory + (swapped == "ledger" ? "/\(device).jsonl" : "/\(device).json")
            #expect(
                try String(contentsOfFile: file, encoding: .utf8).contains(
                    swapped == "ledger" ? "a-charge-2" : "\"sequence\":3"))
        }
    }
}

/// The swapping thread's stop flag and count.
private final class SwapRace: Sendable {
    let stop = Atomic<Bool>(false)
    let swaps = Atomic<Int>(0)
}

extension SwappedDirectoryTests {
    /// A bounded race run for real: a thread swaps each directory of the folder and of the data directory for a link
    /// to a directory elsewhere and back (`RENAME_EXCHANGE`), over and over, while the device charges and syncs
    /// `CREDIT_SWAP_ROUNDS` rounds (40). A round may be refused (a link found where a directory belongs); nothing
    /// ever lands elsewhere, and once the swapping stops the device syncs and verifies clean.
    @Test func directoriesSwappedOverAndBackWhileADeviceChargesAndSyncsReceiveNothing() throws {
        let (a, folder, elsewhere, temporary) = try device()
        defer { withExtendedLifetime(temporary) {} }
        let ledger = try a.openSigned()
        _ = try sync(ledger, folder)
        let targets =
            ["credit/heads", "credit/ledger", "credit"].map { folder.root + "/" + $0 }
            + ["heads", "ledger"].map { a.directory + "/" + $0 }
        for target in targets { #expect(symlink(elsewhere, target + ".swap") == 0) }
        let race = SwapRace()
        let finished = DispatchSemaphore(value: 0)
        let swapper = Thread {
            var index = 0
            while !race.stop.load(ordering: .relaxed) {
                let target = targets[index % targets.count]
                index += 1
                guard Platform.exchangeNames(target, in: AT_FDCWD, with: target + ".swap", in: AT_FDCWD) == 0 else {
                    continue
                }
                race.swaps.add(1, ordering: .relaxed)
                sched_yield()
                // Back at once: the thread never leaves a directory swapped when it stops.
                precondition(Platform.exchangeNames(target, in: AT_FDCWD, with: target + ".swap", in: AT_FDCWD) == 0)
            }
            finished.signal()
        }
        swapper.start()
        let rounds = Int(ProcessInfo.processInfo.environment["CREDIT_SWAP_ROUNDS"] ?? "") ?? 40
        var refused = 0
        var refusals: Set<String> = []
        var seen = 0
        for round in 0..<rounds {
            // Each round starts after another swap: on a loaded machine the swapping thread could otherwise sit
            // descheduled (a directory swapped) through many quick refusals.
            while race.swaps.load(ordering: .relaxed) == seen { sched_yield() }
            seen = race.swaps.load(ordering: .relaxed)
            do {
                _ = try ledger.append(chargeDraft("race-\(round)", pence: 1))
                _ = try sync(ledger, folder)
            } catch {
                refused += 1
                // The words, without the temporary directory's name: the same refusal said once.
                refusals.insert("\(error)".replacingOccurrences(of: temporary.path, with: "…"))
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty, "round \(round)")
        }
        race.stop.store(true, ordering: .relaxed)
        finished.wait()
        let swaps = race.swaps.load(ordering: .relaxed)
        print(
            "swap race: \(rounds) rounds, \(swaps) swaps, \(refused) rounds refused, landed elsewhere: "
                + "\(try FileManager.default.contentsOfDirectory(atPath: elsewhere))\n"
                + refusals.sorted().joined(separator: "\n"))
        #expect(swaps > 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
        for target in targets { try FileManager.default.removeItem(atPath: target + ".swap") }
        let after = try a.openSigned()
        #expect(throws: Never.self) { _ = try sync(after, folder) }
        #expect(try after.verify(files: nil, receiptCheck: nil).isClean)
    }
}

extension SwappedDirectoryTests {
    /// A new ledger's keys: `keys/` (there, empty, as a killed first open leaves it) swapped for a link as the first
    /// key is written. The keys land in the directory opened, nothing elsewhere; by path (the control), the key goes
    /// to the link's target.
    @Test(arguments: [false, true])
    func keysSwappedForALinkAsANewLedgersKeysAreMadeReceiveNothing(byPath: Bool) throws {
        let (_, _, elsewhere, temporary) = try device()
        defer { withExtendedLifetime(temporary) {} }
        let new = try LedgerFixture(prefix: "n")
        #expect(mkdir(new.directory, 0o700) == 0 && mkdir(new.directory + "/keys", 0o700) == 0)
        let layer = SwappingFileSystem(swapping: new.directory + "/keys", for: elsewhere, byPath: byPath)
        let opened = try? Ledger.openSigned(directory: new.directory, clock: new.clock, ids: new.ids, fileSystem: layer)
        #expect(layer.swapped, "keys/ was swapped between its opening and the first key's write")
        let landed = try FileManager.default.contentsOfDirectory(atPath: elsewhere)
        if byPath {
            #expect(!landed.isEmpty, "the control: a key written by path lands elsewhere")
        } else {
            #expect(landed.isEmpty, "nothing written elsewhere: \(landed)")
            #expect(opened != nil, "the ledger opens on the keys made in the directory opened")
            for name in [LedgerKeys.macKeyName, LedgerKeys.headKeyName, LedgerKeys.headPublicKeyName] {
                #expect(FileManager.default.fileExists(atPath: layer.movedDirectory + "/" + name), "\(name)")
            }
        }
    }

    /// `credit join`: a directory of the new data directory being built (`keys/`, `ledger/`) swapped for a link as
    /// its first file is written. Nothing lands elsewhere; by path (the control), the file does.
    @Test(arguments: ["keys", "ledger"], [false, true])
    func aJoiningDirectorySwappedForALinkReceivesNothing(_ swapped: String, byPath: Bool) throws {
        let (a, _, elsewhere, temporary) = try device()
        defer { withExtendedLifetime(temporary) {} }
        let b = try LedgerFixture(prefix: "b")
        let staging = AccountSync.stagingPath(for: b.directory)
        let layer = SwappingFileSystem(swapping: staging + "/" + swapped, for: elsewhere, byPath: byPath)
        let joined = try? AccountSync.join(directory: b.directory, account: a.directory, ids: b.ids, fileSystem: layer)
        #expect(layer.swapped, "\(swapped)/ was swapped between its making and its first file's write")
        let landed = try FileManager.default.contentsOfDirectory(atPath: elsewhere)
        if byPath {
            #expect(!landed.isEmpty, "the control: a file written by path lands elsewhere")
        } else {
            #expect(landed.isEmpty, "nothing written elsewhere: \(landed)")
            #expect(joined != nil)
            let first = swapped == "keys" ? LedgerKeys.macKeyName : "a-0001.jsonl"
            let moved = b.directory + "/" + swapped + ".swapped/" + first
            #expect(FileManager.default.fileExists(atPath: moved), "written in the directory made and opened")
        }
    }
}
