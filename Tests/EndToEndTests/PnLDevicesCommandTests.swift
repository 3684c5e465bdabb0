import Foundation
import Testing

/// Issue 26, no device lost, through the real binaries: a two-device account's exports, split every way (one
/// device's, the other's, before and after merging, old and new of one device), total to the merged account's own
/// `credit pnl --json` to the micro-credit, in `credit pnl --summaries` and in `analytics/pnl.sh` alike.
@Suite struct PnLDevicesCommandTests {
    /// The exports by name, the merged account's own P&L, and each device's own P&L when it exported unmerged.
    private struct Account {
        /// Kept while the account is used: each is removed when it goes.
        var directories: [DataDirectory]
        var out: TemporaryDirectory
        var exports: [String: String]
        var merged: [String: Any]
        var views: [String: [String: Any]]
    }

    /// Device A charges (and declines one), B joins, charges, declines its own charge and one of A's, A charges
    /// again; each exports at moments along the way; then each merges the other and exports again.
    private func twoDevices() async throws -> Account {
        let a = try DataDirectory()
        let b = try DataDirectory()
        let out = try TemporaryDirectory()
        var exports: [String: String] = [:]
        func export(_ data: DataDirectory, _ name: String, at now: String) async throws {
            exports[name] = out.file(name + ".json")
            try await data.ok("export", "--summary", out.file(name + ".json"), now: now)
        }
        func charge(_ data: DataDirectory, _ arguments: String..., at now: String) async throws -> String {
            let run = try await Credit.run(["charge"] + arguments + ["--json"], dataDirectory: data.path, now: now)
            #expect(run.status == 0, "\(run)")
            let made = try run.jsonObject()
            return try #require(made["id"] as? String, "the charge's id")
        }
        _ = try await charge(a, "transcript", "--seconds", "76", "--subject", "note-1", at: "2026-10-25T09:00:00.000Z")
        let debrief = try await charge(a, "debrief", "--subject", "note-1", at: "2026-11-20T09:00:00.000Z")
        try await a.ok("decline", debrief, "--reason", "not-usable", now: "2026-11-20T09:05:00.000Z")
        let save = try await charge(a, "saveToVault", "--quantity", "4", at: "2026-11-20T10:00:00.000Z")
        try await export(a, "a-early", at: "2026-11-20T12:00:00.000Z")
        try await b.ok("join", a.path, now: "2026-11-21T09:00:00.000Z")
        let clean = try await charge(b, "cleanPassage", at: "2026-11-22T09:00:00.000Z")
        try await export(b, "b-early", at: "2026-11-22T12:00:00.000Z")
        try await b.ok("decline", clean, "--reason", "test", now: "2026-11-22T13:00:00.000Z")
        try await b.ok("decline", save, "--reason", "not-needed", now: "2026-11-24T09:00:00.000Z")
        _ = try await charge(b, "send", at: "2026-11-28T09:00:00.000Z")
        _ = try await charge(a, "pushVault", "--quantity", "3", at: "2026-11-26T09:00:00.000Z")
        try await export(a, "a-unmerged", at: "2026-11-29T07:00:00.000Z")
        try await export(b, "b-unmerged", at: "2026-11-29T08:00:00.000Z")
        var views: [String: [String: Any]] = [:]
        views["a-unmerged"] = try await a.ok("pnl", "--json", now: "2026-11-29T12:00:00.000Z").jsonObject()
        views["b-unmerged"] = try await b.ok("pnl", "--json", now: "2026-11-29T12:00:00.000Z").jsonObject()
        try await a.ok("merge", b.path, now: "2026-11-29T09:00:00.000Z")
        try await export(a, "a-merged", at: "2026-11-29T09:30:00.000Z")
        try await b.ok("merge", a.path, now: "2026-11-29T10:00:00.000Z")
        try await export(b, "b-merged", at: "2026-11-29T10:30:00.000Z")
        let merged = try await a.ok("pnl", "--json", now: "2026-11-29T12:00:00.000Z").jsonObject()
        let other = try await b.ok("pnl", "--json", now: "2026-11-29T12:00:00.000Z").jsonObject()
        #expect(NSArray(array: periods(merged)) == NSArray(array: periods(other)), "the two merged devices agree")
        return Account(directories: [a, b], out: out, exports: exports, merged: merged, views: views)
    }

    private func periods(_ report: [String: Any]) -> [Any] { report["periods"] as? [Any] ?? [] }

    static let splits: [[String]] = [
        ["a-merged"], ["b-merged"], ["a-unmerged", "b-unmerged"], ["a-merged", "b-merged"],
        ["a-early", "a-unmerged", "b-unmerged"], ["b-early", "b-unmerged", "a-unmerged"], ["a-unmerged", "b-merged"],
        ["b-unmerged", "a-merged"], ["a-early", "b-early", "b-merged"],
        ["a-early", "b-early", "a-unmerged", "b-unmerged", "a-merged", "b-merged"],
    ]

    @Test func everySplitOfExportsGivesTheMergedAccountsPnLInBothTools() async throws {
        let account = try await twoDevices()
        var cases: [([String], [String: Any])] = PnLDevicesCommandTests.splits.map { ($0, account.merged) }
        // One device's export alone is that device's own P&L as it was then: nothing lost, nothing added.
        for (name, view) in account.views { cases.append(([name], view)) }
        let data = try DataDirectory()
        for (names, expected) in cases {
            let directory = try PnLScript.directory(of: names.map { account.exports[$0]! })
            let credit = try await data.ok("pnl", "--summaries", directory.path, "--json")
            let swift = try credit.jsonObject()
            let duck = try await PnLScript.run([directory.path, "--json"])
            #expect(duck.status == 0, "\(names): \(duck)")
            let sql = try duck.jsonObject()
            let want = NSArray(array: periods(expected))
            #expect(NSArray(array: periods(swift)) == want, "credit pnl --summaries, exports \(names)")
            #expect(NSArray(array: periods(sql)) == want, "analytics/pnl.sh, exports \(names)")
            #expect(int64(swift["accounts"]) == 1 && int64(sql["accounts"]) == 1, "\(names)")
            #expect(NSDictionary(dictionary: swift) == NSDictionary(dictionary: sql), "the two tools, \(names)")
        }
    }

    /// What the issue saw: both devices exported, nothing merged, and only B's figures counted.
    @Test func twoUnmergedExportsAreNoLongerOneSuperseded() async throws {
        let account = try await twoDevices()
        let directory = try PnLScript.directory(of: [account.exports["a-unmerged"]!, account.exports["b-unmerged"]!])
        let text = try await DataDirectory().ok("pnl", "--summaries", directory.path)
        #expect(
            text.stdout.contains("1 account counted, from 2 summaries; 0 older exports superseded; none left out."),
            "nothing is said to be named above when nothing was left out: \(text)")
        let script = try await PnLScript.run([directory.path])
        #expect(script.stdout == text.stdout, "pnl.sh's table is credit's: \(script)")
    }
}
