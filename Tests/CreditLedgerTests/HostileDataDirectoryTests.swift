import CreditLedger
import DurableFiles
import Foundation
import Testing

@testable import LedgerEntries

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The data directory as hostile input (issue 14): no link followed, nothing but a regular file where a file
/// belongs, no directory another user owns or may write in, modes kept narrow, a killed process's temporary files
/// removed. Each refusal names what it refused, and the target (and the data directory) is left as it was.
@Suite struct HostileDataDirectoryTests {
    static func snapshot(_ root: String) -> [String: String] { DirectorySnapshot.take(root) }

    /// A signed ledger with one charge, and a victim file outside it.
    struct World {
        let fixture: LedgerFixture
        let ledger: Ledger
        let victim: String
        var directory: String { fixture.directory }
        var ledgerFile: String { fixture.file(of: ledger) }

        init() throws {
            fixture = try LedgerFixture(prefix: "hostile")
            ledger = try fixture.openSigned()
            try ledger.append(chargeDraft("c1", pence: 5))
            victim = fixture.temporary.file("victim")
            try writeBytes(Array("precious\n".utf8), to: victim)
        }

        func victimIsUntouched(sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(try readBytes(victim) == Array("precious\n".utf8), sourceLocation: sourceLocation)
        }
    }

    func expectRefused(
        _ path: String, _ words: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("\(path) was not refused", sourceLocation: sourceLocation)
        } catch {
            #expect("\(error)".contains(path), "\(error)", sourceLocation: sourceLocation)
            #expect("\(error)".contains(words), "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func aLinkedLedgerFileIsRefusedAndItsTargetUntouched() throws {
        let world = try World()
        try FileManager.default.removeItem(atPath: world.ledgerFile)
        #expect(symlink(world.victim, world.ledgerFile) == 0)
        let before = Self.snapshot(world.directory)
        expectRefused(world.ledgerFile, "symbolic link") { _ = try world.fixture.openSigned() }
        expectRefused(world.ledgerFile, "symbolic link") { _ = try world.fixture.open() }
        #expect(LedgerCheckpoint.balance(directory: world.directory) == nil, "the cache does not vouch for a link")
        try world.victimIsUntouched()
        #expect(!exists(world.directory + "/torn"), "nothing was set aside from the link's target")
        #expect(Self.snapshot(world.directory) == before)
    }

    @Test(arguments: ["directory", "fifo"])
    func somethingElseWhereALedgerFileBelongsIsRefusedByName(_ kind: String) throws {
        let world = try World()
        let path = world.directory + "/ledger/other.jsonl"
        if kind == "directory" {
            #expect(mkdir(path, 0o700) == 0)
        } else {
            #expect(mkfifo(path, 0o600) == 0)
        }
        let before = Self.snapshot(world.directory)
        // A FIFO is refused at once (no open waits for a writer).
        expectRefused(path, kind == "directory" ? "a directory" : "a named pipe") { _ = try world.fixture.openSigned() }
        #expect(Self.snapshot(world.directory) == before)
    }

    @Test func aLinkedDeviceFileIsRefused() throws {
        let world = try World()
        let device = world.directory + "/device"
        try FileManager.default.removeItem(atPath: device)
        #expect(symlink(world.victim, device) == 0)
        expectRefused(device, "symbolic link") { _ = try world.fixture.openSigned() }
        try world.victimIsUntouched()
    }

    @Test(arguments: ["symbolic", "hard"])
    func aLinkAtTheCheckpointIsReplacedNeverWrittenThrough(_ kind: String) throws {
        let world = try World()
        let checkpoint = world.directory + "/checkpoint"
        try FileManager.default.removeItem(atPath: checkpoint)
        if kind == "symbolic" {
            #expect(symlink(world.victim, checkpoint) == 0)
        } else {
            #expect(link(world.victim, checkpoint) == 0)
        }
        let ledger = try world.fixture.openSigned()
        try ledger.append(chargeDraft("c2", pence: 1))
        try world.victimIsUntouched()
        var info = stat()
        #expect(lstat(checkpoint, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_nlink == 1)
        #expect(LedgerCheckpoint.balance(directory: world.directory) == ledger.balance)
    }

    @Test func temporaryFilesAKilledProcessLeftAreRemovedAndNothingElse() throws {
        let world = try World()
        let dir = world.directory
        let leftovers = [
            dir + "/.checkpoint.tmp-0123456789abcdef", dir + "/device.tmp-4242",
            dir + "/ledger/.hostile-0001.jsonl.tmp-00000000deadbeef", dir + "/heads/.hostile-0001.json.tmp-1",
        ]
        for path in leftovers { try writeBytes([1, 2, 3], to: path) }
        // Not ours: a link with a temporary name (its target untouched), a directory, a fresh store temporary.
        let link = dir + "/ledger/.evil.tmp-0123456789abcdef"
        #expect(symlink(world.victim, link) == 0)
        let directory = dir + "/heads/.x.tmp-ab"
        #expect(mkdir(directory, 0o700) == 0)
        let storeTemporary = dir + "/.store.json.tmp-0123456789abcdef"
        try writeBytes([1], to: storeTemporary)
        _ = try world.fixture.openSigned()
        for path in leftovers { #expect(!exists(path), "\(path) was left") }
        var info = stat()
        #expect(lstat(link, &info) == 0, "a link is never removed as a temporary")
        #expect(exists(directory) && exists(storeTemporary), "only regular files, and only ours while fresh")
        try world.victimIsUntouched()
        #expect(DataDirectory.isTemporaryName(".a.tmp-0123456789abcdef") && DataDirectory.isTemporaryName("a.tmp-12"))
        #expect(!DataDirectory.isTemporaryName("a.tmp-") && !DataDirectory.isTemporaryName("a.tmp-xyz"))
        #expect(!DataDirectory.isTemporaryName("hostile-0001.jsonl") && !DataDirectory.isTemporaryName(".tmp-12"))
    }

    @Test(arguments: ["", "/ledger", "/heads", "/keys"])
    func aDirectoryOthersMayWriteInIsRefusedWithTheFix(_ sub: String) throws {
        let world = try World()
        let path = world.directory + sub
        #expect(chmod(path, 0o777) == 0)
        let before = Self.snapshot(world.directory)
        expectRefused(path, "chmod 700 \(path)") { _ = try world.fixture.openSigned() }
        #expect(chmod(path, 0o770) == 0)
        expectRefused(path, "group or others can write") { _ = try world.fixture.open() }
        #expect(Self.snapshot(world.directory).count == before.count)
        #expect(LedgerCheckpoint.balance(directory: world.directory) == nil)
    }

    @Test(.enabled(if: geteuid() == 0, "chown needs root"))
    func aDataDirectoryOwnedByAnotherUserIsRefusedEvenForRoot() throws {
        let world = try World()
        #expect(chown(world.directory, 65534, 65534) == 0)
        let before = Self.snapshot(world.directory)
        expectRefused(world.directory, "chown -R 0 \(world.directory)") { _ = try world.fixture.openSigned() }
        do {
            _ = try world.fixture.openSigned()
        } catch let error as DataDirectoryError {
            #expect(error == .ownedByAnotherUser(path: world.directory, owner: 65534, user: 0))
        }
        #expect(LedgerCheckpoint.balance(directory: world.directory) == nil)
        #expect(Self.snapshot(world.directory) == before, "nothing read through it was written")
    }

    @Test func aDataDirectoryThatIsALinkIsRefused() throws {
        let world = try World()
        let link = world.fixture.temporary.file("linked-data")
        #expect(symlink(world.directory, link) == 0)
        expectRefused(link, "symbolic link") { _ = try Ledger.openSigned(directory: link) }
        let heads = world.directory + "/heads"
        let elsewhere = world.fixture.temporary.file("elsewhere")
        #expect(rename(heads, elsewhere) == 0 && symlink(elsewhere, heads) == 0)
        expectRefused(heads, "symbolic link") { _ = try world.fixture.openSigned() }
    }

    /// The directory a merge or a join takes from is input too: its `ledger/` or `heads/` (and, for a join, its
    /// `keys/`) planted as a link is refused by name, as in this device's own data directory, and nothing is taken.
    @Test(arguments: ["ledger", "heads", "keys"])
    func aLinkInsideTheDirectoryAMergeOrAJoinTakesFromIsRefusedByName(_ name: String) throws {
        let world = try World()
        let source = world.fixture.temporary.file("source")
        let elsewhere = world.fixture.temporary.file("elsewhere")
        try copyItem(world.directory, to: source)
        try copyItem(world.directory + "/" + name, to: elsewhere)
        try FileManager.default.removeItem(atPath: source + "/" + name)
        #expect(symlink(elsewhere, source + "/" + name) == 0)
        let refusal = DataDirectoryError.symbolicLink(path: source + "/" + name)
        if name != "keys" {
            let before = Self.snapshot(world.directory)
            #expect(throws: refusal) { _ = try AccountSync(world.ledger).merge(files: [source]) }
            #expect(Self.snapshot(world.directory) == before, "nothing was merged")
        }
        let joining = try LedgerFixture(prefix: "joining")
        #expect(throws: refusal) {
            try AccountSync.join(directory: joining.directory, account: source, ids: joining.ids)
        }
        #expect(!exists(joining.directory), "nothing was made")
    }

    @Test func everyOpenNarrowsTheDirectoryAndItsFilesButNeverASecret() throws {
        let world = try World()
        let dir = world.directory
        for path in [dir, dir + "/ledger", dir + "/heads", dir + "/keys"] { #expect(chmod(path, 0o755) == 0) }
        for path in [world.ledgerFile, dir + "/device", dir + "/keys/head-public.pem"] {
            #expect(chmod(path, 0o644) == 0)
        }
        // A link's target is not narrowed through it.
        #expect(chmod(world.victim, 0o644) == 0)
        #expect(symlink(world.victim, dir + "/heads/note") == 0)
        _ = try world.fixture.openSigned()
        for path in [dir, dir + "/ledger", dir + "/heads", dir + "/keys"] { #expect(try fileMode(path) == 0o700) }
        for path in [world.ledgerFile, dir + "/device", dir + "/keys/head-public.pem"] {
            #expect(try fileMode(path) == 0o600, "\(path)")
        }
        #expect(try fileMode(world.victim) == 0o644)
        // A secret readable by others is refused, not quietly narrowed.
        #expect(chmod(dir + "/keys/ledger.key", 0o640) == 0)
        expectRefused(dir + "/keys/ledger.key", "chmod 600") { _ = try world.fixture.openSigned() }
        #expect(try fileMode(dir + "/keys/ledger.key") == 0o640)
    }
}
