import AccountSummaries
import CreditLedger
import Foundation
import Signing
import Testing
import VoiceDebriefCredit

/// Issue 35: tax is the app's table's, never a summary's. A summary forged under a key of its own claimed tax the
/// table does not know (VAT in a storefront the table lacks, 0% in GBR) and every tool took it, while the page said
/// tax comes "from the app's table". Now `credit pnl --summaries` and `analytics/pnl.sh` work each money row's tax,
/// commission and proceeds out from its gross with the app's table; a storefront it lacks is "tax unknown".
@Suite struct TaxFromTheTableTests {
    /// A signed v3 summary, under a key of its own, of two £5.00 top-ups (GBR, its VAT claimed as 0%) and one €5.00
    /// top-up in France (a storefront the table lacks, its tax claimed as 20%), at 15% commission.
    private func forged() throws -> AccountSummary {
        let key = try P256PrivateKey.generate()
        let money = [
            SummaryMoney(
                day: "2026-11-28", kind: "sale", currency: "EUR", storefront: "FRA", taxKnown: true, count: 1,
                gross: 5_000_000, tax: 833_333, commission: 625_000, proceeds: 3_541_667),
            SummaryMoney(
                day: "2026-11-28", kind: "sale", currency: "GBP", storefront: "GBR", taxKnown: true, count: 2,
                gross: 10_000_000, tax: 0, commission: 1_500_000, proceeds: 8_500_000),
        ]
        var summary = AccountSummary(
            account: AccountSummary.accountID(for: key.publicKey), exportedAt: "2026-11-29T12:00:00.000Z",
            publicKey: Base64URL.encode(key.publicKey.derRepresentation), costsArePlaceholders: true,
            devices: [
                SummaryDevice(
                    device: SummaryDevice.pseudonym(of: "d", publicKey: key.publicKey), head: 3, days: [],
                    declines: [],
                    credit: [SummaryCredit(day: "2026-11-28", kind: "sold", count: 3, amount: 15_000_000)],
                    money: money)
            ])
        summary.commission = .smallBusiness
        summary.moneyArePlaceholders = true
        try summary.sign(with: key)
        return summary
    }

    /// What the table makes of the forged rows, all time: (currency, tax, commission, proceeds, tax-unknown top-ups).
    static let expected: [(String, Int64, Int64, Int64, Int64)] = [
        // £10.00 at 20% VAT: tax £1.666667, commission 15% of £8.333333, proceeds what is left.
        ("GBP", 1_666_667, 1_250_000, 7_083_333, 0),
        // France is not in the table: counted as paid, nothing else worked out.
        ("EUR", 0, 0, 0, 1),
    ]

    @Test func theTotalsTakeTheTablesTaxNotTheSummarys() throws {
        let total = try SummaryTotaliser.total(
            [("forged.json", try forged())], asOf: MoneyLedger.asOf, tax: .app)
        #expect(total.counted == ["forged.json"] && total.rejected.isEmpty, "\(total.rejected)")
        let money = try #require(total.report.period("all")?.money)
        for (currency, tax, commission, proceeds, unknown) in Self.expected {
            let line = try #require(money.currencies.first { $0.currency == currency })
            #expect(line.tax == tax && line.commission == commission && line.proceeds == proceeds, "\(line)")
            #expect(line.taxUnknownTopUps == unknown, "\(line)")
        }
    }

    @Test func pnlShWorksItOutTheSameWay() async throws {
        let directory = try TemporaryDirectory()
        try Data(try forged().encodedJSON()).write(to: URL(fileURLWithPath: directory.file("forged.json")))
        var environment = ProcessInfo.processInfo.environment
        environment["CREDIT_SUMMARY_VERIFY"] = try Binaries.require("credit-summary-verify")
        // pnl.sh's working files in a folder of the test's (AccountSummaryTests runs it as a user does, making and
        // removing its own).
        let scratch = try TemporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        environment["PNL_SCRATCH"] = scratch.path
        environment["NO_COLOR"] = "1"
        let data = try TemporaryDirectory()
        let swift = try await ChildProcess.run(
            try Binaries.require("credit"),
            ["--data-dir", data.file("d"), "pnl", "--summaries", directory.path, "--json"], environment: environment,
            timeout: 300)
        let duck = try await ChildProcess.run(
            "/bin/bash", [Repository.root + "/analytics/pnl.sh", directory.path, "--json"], environment: environment,
            timeout: 300)
        #expect(swift.status == 0 && duck.status == 0, "\(swift)\n\(duck)")
        let duckJSON = try #require(try JSONSerialization.jsonObject(with: Data(duck.stdout.utf8)) as? NSDictionary)
        let swiftJSON = try JSONSerialization.jsonObject(with: Data(swift.stdout.utf8)) as? NSDictionary
        #expect(swiftJSON == duckJSON, "\(swift.stdout.prefix(2000))\n---\n\(duck.stdout.prefix(2000))")
        let periods = try #require(duckJSON["periods"] as? [[String: Any]])
        let money = try #require(periods.first { $0["period"] as? String == "all" }?["money"] as? [String: Any])
        let currencies = try #require(money["currencies"] as? [[String: Any]])
        for (currency, tax, commission, proceeds, unknown) in Self.expected {
            let line = try #require(currencies.first { $0["currency"] as? String == currency })
            let figures = ["tax", "commission", "proceeds", "taxUnknownTopUps"].map {
                (line[$0] as? NSNumber)?.int64Value
            }
            #expect(figures == [tax, commission, proceeds, unknown], "\(currency): \(line)")
        }
    }

    @Test func pnlShsTableIsTheApps() throws {
        let path = Repository.root + "/analytics/storefront_tax.json"
        let table = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(table as? [String: Int] == VoiceDebriefMoney.taxByStorefront, "analytics/storefront_tax.json")
    }
}
