import CreditLedger
import Foundation
import Testing

@testable import LedgerEntries

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One lock for a whole command: a signed ledger opened with a body holds `ledger/.lock` from the open to the end of
/// the body, and what the body changes through it (an append with its head and checkpoint) does not lock again.
@Suite struct LedgerLockTests {
    /// Whether another open file description could take the lock now.
    private static func lockIsFree(_ directory: String) throws -> Bool {
        let fd = open(directory + "/ledger/.lock", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw TestFailure("cannot open the lock file") }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
        guard errno == EWOULDBLOCK else { throw TestFailure("flock failed: \(errno)") }
        return false
    }

    @Test func aCommandOpensAndAppendsUnderOneLock() throws {
        let fixture = try LedgerFixture(prefix: "lock")
        _ = try fixture.openSigned()
        #expect(try Self.lockIsFree(fixture.directory))
        let entry = try Ledger.openSigned(directory: fixture.directory, clock: fixture.clock, ids: fixture.ids) {
            ledger in
            #expect(try !Self.lockIsFree(fixture.directory), "held from the open on")
            let entry = try ledger.append(chargeDraft("c1", pence: 5)).entry
            #expect(try !Self.lockIsFree(fixture.directory), "still held after the append")
            return entry
        }
        #expect(try Self.lockIsFree(fixture.directory), "let go at the end")
        let head = try #require(try SignedHead.read(in: fixture.directory, device: entry.device))
        #expect(head.sequence == entry.sequence && head.mac == entry.mac, "the head was kept in the same lock")
        let reopened = try fixture.openSigned()
        #expect(reopened.entry(id: "c1") == entry)
        #expect(LedgerCheckpoint.balance(directory: fixture.directory) == reopened.balance)
    }

    @Test func aPlainChangeTakesTheLockAndLetsItGo() throws {
        let fixture = try LedgerFixture(prefix: "lock")
        let ledger = try fixture.openSigned()
        try ledger.append(chargeDraft("c1", pence: 1))
        #expect(try Self.lockIsFree(fixture.directory))
        try ledger.refresh()
        #expect(try Self.lockIsFree(fixture.directory))
    }
}
