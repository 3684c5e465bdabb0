import AccountSummaries
import CreditLedger
import Foundation
import Signing
import Testing
import VoiceDebriefCredit

/// Issue 26: features named in the price list's words everywhere, `credit pnl --summaries DIR` too, with the key
/// beside them; `analytics/pnl.sh` writes the same table line for line (its names from
/// `analytics/feature_names.json`, which must be the price list's own). A key the price list has no name for (a
/// summary from a later app) is shown alone, cut to the cell's width the same way by both.
@Suite struct FeatureNamesBothToolsTests {
    /// A key longer than a feature's cell (48 characters), and one of a later app's.
    static let longKey = "aFeatureOfALaterAppWhoseKeyIsLongerThanTheCellOfItsTable"
    static let laterKey = "laterFeature"

    /// One account: a transcript and a clean passage (price-list features), a later app's feature and a long key;
    /// a top-up in pounds, so the money section has its table of features.
    private func directory() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let key = try P256PrivateKey.generate()
        let days = [
            day("transcript", charged: 60_000), day("cleanPassage", charged: 10_000),
            day(Self.laterKey, charged: 20_000), day(Self.longKey, charged: 30_000),
        ]
        var summary = AccountSummary(
            account: AccountSummary.accountID(for: key.publicKey), exportedAt: "2026-11-29T12:00:00.000Z",
            publicKey: Base64URL.encode(key.publicKey.derRepresentation), costsArePlaceholders: true,
            devices: [
                SummaryDevice(
                    device: SummaryDevice.pseudonym(of: "d", publicKey: key.publicKey), head: 5, days: days,
                    declines: [],
                    credit: [SummaryCredit(day: "2026-11-28", kind: "sold", count: 1, amount: 5_000_000)],
                    money: [
                        SummaryMoney(
                            day: "2026-11-28", kind: "sale", currency: "GBP", storefront: "GBR", taxKnown: true,
                            count: 1, gross: 5_000_000, tax: 833_333, commission: 625_000, proceeds: 3_541_667)
                    ])
            ])
        summary.commission = CommissionRate(name: "small-business", basisPoints: 1500)
        summary.moneyArePlaceholders = true
        try summary.sign(with: key)
        try Data(try summary.encodedJSON()).write(to: URL(fileURLWithPath: directory.file("one.json")))
        return directory
    }

    private func day(_ feature: String, charged: Int64) -> SummaryDay {
        SummaryDay(
            day: "2026-11-28", feature: feature, charges: 1, charged: charged, declined: 0, givenBack: 0, cost: 0)
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

    @Test func analyticsNamesAreThePriceListsOwn() throws {
        let path = Repository.root + "/analytics/feature_names.json"
        let names = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(names == VoiceDebriefPrices().featureNames, "analytics/feature_names.json is not the price list's")
    }

    @Test func bothToolsNameFeaturesInThePriceListsWordsWithTheKeyBeside() async throws {
        let directory = try directory()
        let data = try TemporaryDirectory()
        let credit = try Binaries.require("credit")
        let table = try await run(credit, ["--data-dir", data.file("d"), "pnl", "--summaries", directory.path])
        let script = try await run("/bin/bash", [Repository.root + "/analytics/pnl.sh", directory.path])
        #expect(table.status == 0 && script.status == 0, "\(table)\n\(script)")
        #expect(table.stdout == script.stdout, "credit:\n\(table.stdout)\n---\npnl.sh:\n\(script.stdout)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        // The feature table, then the money section's proceeds by feature: each names them.
        let named = lines.filter { $0.hasPrefix("  A transcript (transcript) ") }
        #expect(named.count == 2, "\(table.stdout)")
        #expect(lines.filter { $0.hasPrefix("  A clean text (cleanPassage) ") }.count == 2, "\(table.stdout)")
        // A key with no name in the price list is shown alone (never beside a name), a long one cut with "…".
        #expect(lines.filter { $0.hasPrefix("  \(Self.laterKey) ") }.count == 2, "\(table.stdout)")
        let cut = String(Self.longKey.prefix(47)) + "…"
        #expect(lines.filter { $0.hasPrefix("  \(cut) ") }.count == 2, "\(table.stdout)")
        #expect(!table.stdout.contains(Self.longKey), "cut to the cell's width")
    }
}
