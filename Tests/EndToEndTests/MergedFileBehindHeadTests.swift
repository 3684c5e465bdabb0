import Foundation
import TestSupport
import Testing

/// Issue 35, item 7: another device's file kept here (b's, merged into a) that is later cut short or replaced by an
/// older copy is still read, but every command that uses it says so on standard error, in words: which device, how
/// far its signed head says it went, how far the file goes, and what to do. Only `credit devices` and `credit
/// verify` used to show it.
@Suite struct MergedFileBehindHeadTests {
    /// Device a with b's two charges merged in, then b's file in a's data directory cut back to its first entry.
    private final class CutAccount {
        let a = try! DataDirectory()
        let b = try! DataDirectory()
        let scratch: TemporaryDirectory
        var bDevice = ""

        init() async throws {
            scratch = try TemporaryDirectory(prefix: "cut")
            try await a.ok("charge", "debrief")
            try await b.ok("join", a.path)
            try await b.ok("charge", "send")
            try await b.ok("charge", "send")
            try await a.ok("merge", b.path)
            bDevice = try b.device
            let file = a.path + "/ledger/\(bDevice).jsonl"
            let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 2)
            try Data((lines[0] + "\n").utf8).write(to: URL(fileURLWithPath: file))
        }
    }

    /// The commands that read the ledger and must say so, each as it is run (a summary goes to a file of its own).
    private static func commands(_ scratch: TemporaryDirectory) -> [[String]] {
        [
            ["balance"], ["balance"], ["screen"], ["entries"], ["takings"], ["pnl"],
            ["export", "--summary", scratch.path + "/summary-\(UUID().uuidString).json"], ["charge", "debrief"],
        ]
    }

    @Test(arguments: [false, true])
    func everyCommandThatUsesTheCutFileSaysSoAndStillGivesItsFigures(json: Bool) async throws {
        let account = try await CutAccount()
        for command in Self.commands(account.scratch) {
            let arguments = command + (json ? ["--json"] : [])
            let result = try await Credit.run(arguments, dataDirectory: account.a.path, now: "2026-11-29T12:00:00.000Z")
            let words = arguments.joined(separator: " ")
            #expect(result.status == 0, "credit \(words): \(result)")
            let note = result.stderr
            #expect(
                note.contains("credit: note: device \(account.bDevice)'s signed head says its entries went to #2"),
                "credit \(words): \(result)")
            #expect(note.contains("goes only to entry #1"), "credit \(words): \(result)")
            #expect(note.contains("`credit merge`") && note.contains("`credit sync`"), "credit \(words): \(result)")
            #expect(!note.contains(".swift") && !note.contains("errno"), "credit \(words): \(result)")
            if json {
                #expect((try? result.json()) != nil, "credit \(words): not JSON on standard output: \(result)")
            } else {
                #expect(!result.stdout.isEmpty, "credit \(words): \(result)")
            }
        }
    }

    @Test func mergingTheDeviceAgainBringsItBackAndTheNoteGoes() async throws {
        let account = try await CutAccount()
        let cut = try await account.a.ok("balance", "--json")
        #expect(cut.stderr.contains("goes only to entry #1"), "\(cut)")
        try await account.a.ok("merge", account.b.path)
        let mended = try await account.a.ok("balance", "--json")
        #expect(!mended.stderr.contains("signed head says"), "\(mended)")
        await #expect(try account.a.balance() == account.b.balance())
        let verified = try await account.a.credit("verify")
        #expect(verified.status == 0, "\(verified)")
    }
}
