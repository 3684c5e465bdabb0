import Foundation
import Testing

/// Issue 26, in money, through the real binaries: top-ups through the mock store (real signed transactions) in GBR
/// and in France (a storefront whose tax the app's table does not have, in euros), half of the first refunded, and
/// the same money section from `credit pnl --json`, `credit pnl --summaries DIR --json` and
/// `bash analytics/pnl.sh DIR --json`, the tables of the last two the same line for line.
@Suite struct PnLMoneyCommandTests {
    let home: TemporaryDirectory
    let data: DataDirectory

    init() throws {
        home = try TemporaryDirectory(prefix: "pnl-money")
        data = try DataDirectory()
    }

    /// The account's own `credit pnl --json` and its export in a directory of its own.
    private func toppedUpAndRefunded() async throws -> (ledger: [String: Any], summaries: String, store: StoreProcess) {
        let store = try await StoreProcess.start(dataDirectory: home.file("store"))
        let root = home.file("root.der")
        try await store.saveRoot(to: root)
        try await data.ok("store", "use", "mockstore", "--url", store.url, "--root-certificate", root)
        try await store.store.setStorefront("GBR")
        let bought = try await data.ok("topup", "--json", now: "2026-11-20T09:00:00.000Z").jsonObject()
        let id = try #require(bought["reference"] as? String)
        try await data.ok(
            "charge", "transcript", "--seconds", "76", "--subject", "note-1", now: "2026-11-25T09:00:00.000Z")
        try await data.ok("charge", "debrief", "--subject", "note-1", now: "2026-11-26T09:00:00.000Z")
        try await store.store.refund(id, percentage: 50000)
        try await data.ok("collect", now: "2026-11-27T09:00:00.000Z")
        try await store.store.setStorefront("FRA")
        try await data.ok("topup", now: "2026-11-28T09:00:00.000Z")
        let ledger = try await data.ok("pnl", "--json").jsonObject()
        let directory = home.file("summaries")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try await data.ok("export", "--summary", directory + "/mine.json")
        return (ledger, directory, store)
    }

    private func money(_ report: [String: Any], _ period: String = "all") throws -> NSDictionary {
        let periods = try #require(report["periods"] as? [[String: Any]])
        let found = try #require(periods.first { $0["period"] as? String == period })
        return try #require(found["money"] as? NSDictionary, "period \(period) has a money section")
    }
}

extension PnLMoneyCommandTests {
    /// £5.00 in GBR at 15%: VAT £0.833333, commission £0.625, proceeds £3.541667; half refunded takes back
    /// £1.770833 of them (gross £2.50, VAT 416,666.5 → £0.416667, commission £0.3125); the French top-up is in
    /// euros, tax unknown, no proceeds guessed. Each feature's share of the £1.770834 kept by its share of the 11p
    /// used: transcript 6/11, debrief 5/11.
    @Test func theMoneySectionOfARealTopUpAndAPartialRefund() async throws {
        let (ledger, _, _) = try await toppedUpAndRefunded()
        let section = try money(ledger)
        let currencies = try #require(section["currencies"] as? [[String: Any]])
        #expect(currencies.map { $0["currency"] as? String } == ["EUR", "GBP"], "each currency apart")
        let pounds = try #require(currencies.first { $0["currency"] as? String == "GBP" })
        let expected: [String: Int64] = [
            "topUps": 1, "gross": 5_000_000, "tax": 833_333, "commission": 625_000, "proceeds": 3_541_667,
            "refunds": 1, "refundedGross": 2_500_000, "refunded": 1_770_833, "kept": 1_770_834,
            "taxUnknownTopUps": 0,
        ]
        for (key, value) in expected { #expect(int64(pounds[key]) == value, "GBP \(key)") }
        let euros = try #require(currencies.first { $0["currency"] as? String == "EUR" })
        #expect(int64(euros["topUps"]) == 1 && int64(euros["taxUnknownTopUps"]) == 1)
        #expect(int64(euros["gross"]) == int64(euros["taxUnknownGross"]) && (int64(euros["gross"]) ?? 0) > 0)
        #expect(int64(euros["proceeds"]) == 0 && int64(euros["tax"]) == 0 && int64(euros["kept"]) == 0)
        let features = try #require(pounds["features"] as? [[String: Any]])
        #expect(features.map { $0["feature"] as? String } == ["transcript", "debrief"])
        #expect(features.map { int64($0["proceeds"]) } == [965_909, 804_925])
        #expect(features.map { int64($0["margin"]) } == [965_909 - 9_600, 804_925 - 2_500])
        let credit = try #require(section["credit"] as? [String: Any])
        #expect(int64(credit["sold"]) == 10_000_000 && int64(credit["givenFree"]) == 5_000_000)
        #expect(int64(credit["takenBack"]) == 2_500_000 && int64(credit["used"]) == 110_000)
        #expect(int64(credit["outstanding"]) == 12_390_000 && int64(credit["belowZero"]) == 0)
        await #expect(try data.balance() == 12_390_000, "outstanding is the counter's balance")
        let text = try await data.ok("pnl").stdout
        #expect(text.contains("Money, all time, this account"), "\(text)")
        #expect(text.contains("£0.833333") && text.contains("£0.625") && text.contains("£3.541667"), "\(text)")
        #expect(text.contains("EUR "), "euros are written as euros: \(text)")
        #expect(!text.contains("EUR 0.00"), "proceeds not worked out are not shown as nothing: \(text)")
    }

    /// The summary carries the money section (no transaction id, token or receipt), and both tools total it to the
    /// ledger's own figures, every period; their tables agree line for line.
    @Test func theSameMoneyFromTheSummariesInBothTools() async throws {
        let (ledger, directory, _) = try await toppedUpAndRefunded()
        let summary = try String(contentsOfFile: directory + "/mine.json", encoding: .utf8)
        #expect(summary.contains("voicedebrief-account-summary-v3"))
        for secret in ["topup-", "reversal-", "eyJ", "appAccountToken", "transactionId"] {
            #expect(!summary.contains(secret), "\(secret) is not in a summary")
        }
        let swift = try await data.ok("pnl", "--summaries", directory, "--json").jsonObject()
        let script = try await PnLScript.run([directory, "--json"])
        #expect(script.status == 0, "\(script)")
        let duck = try script.jsonObject()
        for period in ["all", "30d", "7d"] {
            #expect(try money(swift, period) == money(ledger, period), "credit pnl --summaries, \(period)")
            #expect(try money(duck, period) == money(ledger, period), "analytics/pnl.sh, \(period)")
        }
        let table = try await data.ok("pnl", "--summaries", directory).stdout
        let scriptTable = try await PnLScript.run([directory])
        #expect(scriptTable.stdout == table, "the same table:\n\(table)\n---\n\(scriptTable.stdout)")
        #expect(table.contains("Money, all time, 1 account") && table.contains("£3.541667"))
    }

    /// A simulated top-up is no money taken, and said so.
    @Test func aSimulatedTopUpIsNoMoneyTaken() async throws {
        try await data.ok("topup")
        let section = try await money(try data.ok("pnl", "--json").jsonObject())
        #expect(int64(section["simulatedTopUps"]) == 1)
        #expect((section["currencies"] as? [Any])?.isEmpty == true)
        let credit = try #require(section["credit"] as? [String: Any])
        #expect(int64(credit["simulated"]) == 5_000_000 && int64(credit["sold"]) == 0)
        let text = try await data.ok("pnl").stdout
        #expect(text.contains("No money taken.") && text.contains("Top-ups with no money taken (simulated): 1."))
    }
}
