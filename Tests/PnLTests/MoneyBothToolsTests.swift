import AccountSummaries
import CreditLedger
import Foundation
import Signing
import Testing
import VoiceDebriefCredit

/// Issue 26, in money, for everybody: a directory with a v3 account (top-ups in pounds and dollars, half a refund)
/// and an account whose summary is v2 (before money): `credit pnl --summaries` and `analytics/pnl.sh` give the same
/// JSON and the same table, the older account counted in the features and said to have no money.
@Suite struct MoneyBothToolsTests {
    private func directory() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let key = try P256PrivateKey.generate()
        let current = try AccountSummary.make(
            entries: MoneyLedger.entries, exportedAt: MoneyLedger.asOf, prices: VoiceDebriefPrices(),
            costs: VoiceDebriefCosts(), money: VoiceDebriefMoney(), headKey: key)
        let otherKey = try P256PrivateKey.generate()
        var old = try AccountSummary.make(
            entries: MoneyLedger.entries, exportedAt: MoneyLedger.asOf, prices: VoiceDebriefPrices(),
            costs: VoiceDebriefCosts(), money: VoiceDebriefMoney(), headKey: otherKey)
        old.format = AccountSummary.deviceSectionsFormatName
        old.commission = nil
        old.moneyArePlaceholders = nil
        old.devices = old.devices?.map {
            SummaryDevice(device: $0.device, head: $0.head, days: $0.days, declines: $0.declines)
        }
        try old.sign(with: otherKey)
        try Data(try current.encodedJSON()).write(to: URL(fileURLWithPath: directory.file("current.json")))
        try Data(try old.encodedJSON()).write(to: URL(fileURLWithPath: directory.file("old.json")))
        return directory
    }

    private func run(_ executable: String, _ arguments: [String]) async throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["CREDIT_SUMMARY_VERIFY"] = try Binaries.require("credit-summary-verify")
        // pnl.sh's working files in a folder of the test's (AccountSummaryTests runs it as a user does, making and
        // removing its own).
        let scratch = try TemporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        environment["PNL_SCRATCH"] = scratch.path
        environment["NO_COLOR"] = "1"
        environment["CREDIT_NOW"] = "2026-11-29T12:00:00.000Z"
        return try await ChildProcess.run(executable, arguments, environment: environment, timeout: 300)
    }

    @Test func anOlderSummaryBesideAMoneyOneIsSaidTheSameByBothTools() async throws {
        let directory = try directory()
        let data = try TemporaryDirectory()
        let credit = try Binaries.require("credit")
        let script = Repository.root + "/analytics/pnl.sh"
        let swift = try await run(
            credit, ["--data-dir", data.file("d"), "pnl", "--summaries", directory.path, "--json"])
        let duck = try await run("/bin/bash", [script, directory.path, "--json"])
        #expect(swift.status == 0 && duck.status == 0, "\(swift)\n\(duck)")
        let swiftJSON = try JSONSerialization.jsonObject(with: Data(swift.stdout.utf8)) as? NSDictionary
        let duckJSON = try JSONSerialization.jsonObject(with: Data(duck.stdout.utf8)) as? NSDictionary
        #expect(
            swiftJSON != nil && swiftJSON == duckJSON, "\(swift.stdout.prefix(2000))\n---\n\(duck.stdout.prefix(2000))")
        let periods = try #require(swiftJSON?["periods"] as? [[String: Any]])
        let money = try #require(periods.first?["money"] as? [String: Any])
        #expect(money["accountsWithoutMoney"] as? Int == 1 && money["accountsCounted"] as? Int == 1)
        let table = try await run(credit, ["--data-dir", data.file("d"), "pnl", "--summaries", directory.path])
        let scriptTable = try await run("/bin/bash", [script, directory.path])
        #expect(table.stdout == scriptTable.stdout, "\(table.stdout)\n---\n\(scriptTable.stdout)")
        #expect(table.stdout.contains("1 account whose summaries carry no money"), "\(table.stdout)")
        #expect(table.stdout.contains("USD 4.99") && table.stdout.contains("£3.541667"), "\(table.stdout)")
        // Issue 35: a feature's proceeds are said plainly to be a share, not earnings, in both tools' words.
        let share =
            "  Proceeds by feature in GBP: the proceeds kept, shared out by each feature's share of the credit used "
            + "(not money a feature earned)."
        #expect(table.stdout.contains(share + "\n"), "\(table.stdout)")
    }
}
