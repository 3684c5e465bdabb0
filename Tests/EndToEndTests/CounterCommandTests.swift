import CreditLedger
import Foundation
import Testing

/// `credit balance` after another process changed the ledger: lines appended are taken forward silently, a file
/// changed any other way is read whole and said.
@Suite struct CounterCommandTests {
    @Test func aFileCutShortIsReadWholeAndSaid() async throws {
        let data = try DataDirectory()
        try await data.ok("charge", "debrief")
        let oneCharge = try data.bytes(try data.ledgerFile).count
        try await data.ok("charge", "debrief")
        #expect(try await data.ok("balance").stderr.isEmpty)
        // An older copy of the file put back in place: one line cut off its end.
        #expect(truncate(try data.ledgerFile, off_t(oneCharge)) == 0)
        let result = try await data.ok("balance")
        #expect(result.stdout == "£4.95\n")
        #expect(
            result.stderr.contains(
                "credit: note: \(try data.ledgerFile) is shorter than when the balance was last counted (lines cut "
                    + "off, or an older copy put back): every entry was read again"), "\(result.stderr)")
    }

    @Test func linesAppendedByAnotherProcessAreTakenForwardSilently() async throws {
        let data = try DataDirectory()
        try await data.ok("charge", "debrief")
        #expect(try await data.ok("balance").stdout == "£4.95\n")
        // Another process appends without keeping the checkpoint (a ledger opened without signing upkeep).
        let keys = try LedgerKeys.load(from: data.path)
        let ledger = try Ledger(directory: data.path, authenticator: try keys.makeAuthenticator(), create: false)
        try ledger.append(
            EntryDraft(id: "other-1", kind: .charge, feature: "send", quantity: 1, amount: MicroCredits(-10_000)))
        let result = try await data.ok("balance")
        #expect(result.stdout == "£4.94\n" && result.stderr.isEmpty, "\(result)")
        #expect(LedgerCheckpoint.counter(directory: data.path) == .counted(MicroCredits(4_940_000), newEntries: 0))
    }
}
