import AccountSummaries
import CreditLedger
import Foundation
import Signing
import Testing
import VoiceDebriefCredit

@Suite struct AccountSummaryTests {
    private let key = try! P256PrivateKey.generate()

    private func summary(at time: Timestamp = KnownLedger.asOf, key: P256PrivateKey? = nil) throws -> AccountSummary {
        try AccountSummary.make(
            entries: KnownLedger.entries, exportedAt: time, prices: VoiceDebriefPrices(), costs: KnownLedger.Costs(),
            headKey: key ?? self.key)
    }

    @Test func aSummaryHoldsNoSubjectIDTextOrDevice() throws {
        let text = String(decoding: try summary().encodedJSON(), as: UTF8.self)
        for secret in [
            "note-a", "note-b", "vault-1", "c-transcript", "refund-c-clean", "device-secret-name", "evil", "opening",
            "topup", "simulated",
        ] {
            #expect(!text.contains(secret), "the summary gives away \(secret)")
        }
        let decoded = try AccountSummary.verified(from: Array(text.utf8))
        let section = try #require(decoded.devices?.first)
        #expect(decoded.devices?.count == 1 && section.head == 12, "one device, its last sequence")
        #expect(SummaryDevice.isPseudonym(section.device))
        #expect(section.days.contains { $0.day == "2026-11-19" && $0.feature == "transcript" && $0.cost == 21_500 })
        #expect(section.declines.map(\.reason).sorted() == ["not-usable", "other"])
    }

    @Test func theAccountIDIsTheSameInEveryExportAndTiedToTheKey() throws {
        let first = try summary(at: KnownLedger.asOf)
        let later = try summary(at: KnownLedger.at(1))
        #expect(first.account == later.account && first.account.count == 32)
        #expect(first.account == AccountSummary.accountID(for: key.publicKey))
        #expect(try summary(key: P256PrivateKey.generate()).account != first.account)
    }

    @Test func anAlteredSummaryIsRefused() throws {
        let original = try summary()
        try original.verify()
        var richer = original
        richer.devices![0].days[0].charged += 10_000
        #expect(throws: SummaryError.self) { try richer.verify() }
        // Another key cannot take this account's id: the id is checked against the key inside.
        var hijacked = try summary(key: P256PrivateKey.generate())
        hijacked.account = original.account
        #expect(throws: SummaryError.self) { try hijacked.verify() }
        // Nor can the key be swapped under the same signature.
        var swapped = original
        swapped.publicKey = hijacked.publicKey
        #expect(throws: SummaryError.self) { try swapped.verify() }
    }

    @Test func theTotaliserNamesAndLeavesOutABadSummaryAndKeepsTheLatestPerAccount() throws {
        let directory = try TemporaryDirectory()
        let older = try summary(at: KnownLedger.at(-5))
        var olderRicher = older
        olderRicher.devices![0].days = olderRicher.devices![0].days.map {
            var day = $0; day.charged *= 2; return day
        }
        try olderRicher.sign(with: key)
        let latest = try summary(at: KnownLedger.asOf)
        let other = try summary(key: P256PrivateKey.generate())
        var altered = try summary(key: P256PrivateKey.generate())
        altered.devices![0].days[0].cost = 0
        for (name, item) in [
            ("a-older", olderRicher), ("b-latest", latest), ("c-other", other), ("d-altered", altered),
        ] {
            try Data(try item.encodedJSON()).write(to: URL(fileURLWithPath: directory.file(name + ".json")))
        }
        _ = try directory.write("{ not json", to: "e-garbage.json")
        let total = try SummaryTotaliser.total(directory: directory.path, tax: .app)
        #expect(total.rejected.map(\.file) == [directory.file("d-altered.json"), directory.file("e-garbage.json")])
        #expect(total.rejected[0].reason.contains("signature"))
        #expect(total.superseded == [directory.file("a-older.json")])
        #expect(total.counted == [directory.file("b-latest.json"), directory.file("c-other.json")])
        #expect(total.report.accounts == 2 && total.report.source == .summaries)
        let all = try #require(total.report.period("all"))
        let single = try #require(
            try ProfitAndLossReport.make(
                entries: KnownLedger.entries, asOf: KnownLedger.asOf, prices: VoiceDebriefPrices(),
                costs: KnownLedger.Costs()
            ).period("all"))
        // Two accounts with the same entries: twice one ledger's figures, the older export's never.
        #expect(all.total.charged == 2 * single.total.charged && all.total.cost == 2 * single.total.cost)
        #expect(all.total.givenBack == 2 * single.total.givenBack)
        #expect(all.declinesByReason.map(\.count) == single.declinesByReason.map { $0.count * 2 })
    }

    /// 10,000 generated accounts (and an altered and an older summary among them), totalled by the Swift totaliser
    /// and by DuckDB over analytics/: the same JSON to the micro-credit.
    @Test(.enabled(if: SlowStage.isOn, SlowStage.reason), .timeLimit(.minutes(8)))
    func tenThousandAccountsBySwiftAndByDuckDB() async throws {
        let directory = try TemporaryDirectory()
        let clock = ContinuousClock()
        let started = clock.now
        var random = SeededRandom(seed: 16)
        let features = ["transcript", "debrief", "cleanPassage", "createVault", "saveToVault", "pushVault", "send"]
        let reasons = ["not-usable", "not-needed", "test", "other"]
        var firstKey: P256PrivateKey?
        for index in 0..<10_000 {
            let key = try P256PrivateKey.generate()
            if index == 0 { firstKey = key }
            let made = try GeneratedSummary.make(key: key, features: features, reasons: reasons, random: &random)
            try Data(try made.encodedJSON()).write(
                to: URL(fileURLWithPath: directory.file(String(format: "account-%05d.json", index))))
        }
        // An older export of account 0 (its device's head lower: it must be superseded) and an altered copy of
        // account 1.
        var older = try GeneratedSummary.make(
            key: firstKey!, features: features, reasons: reasons, random: &random, exportedDaysAgo: 3, head: 50)
        try older.sign(with: firstKey!)
        try Data(try older.encodedJSON()).write(to: URL(fileURLWithPath: directory.file("older-0.json")))
        let second = try Data(contentsOf: URL(fileURLWithPath: directory.file("account-00001.json")))
        var altered = try JSONDecoder().decode(AccountSummary.self, from: second)
        // A change that is always one (a figure raised), whatever the generator made.
        altered.devices![0].days[0].charged += 10_000
        try Data(try altered.encodedJSON()).write(to: URL(fileURLWithPath: directory.file("altered-1.json")))

        let generated = clock.now
        let swift = try SummaryTotaliser.total(directory: directory.path, tax: .app)
        let totalled = clock.now
        #expect(swift.report.accounts == 10_000)
        #expect(swift.rejected.map(\.file) == [directory.file("altered-1.json")])
        #expect(swift.superseded == [directory.file("older-0.json")])
        let swiftJSON = try JSONSerialization.jsonObject(with: JSONEncoder().encode(swift.report)) as? NSDictionary

        var environment = ProcessInfo.processInfo.environment
        environment["CREDIT_SUMMARY_VERIFY"] = try Binaries.require("credit-summary-verify")
        let duck = try await ChildProcess.run(
            "/bin/bash", [Repository.root + "/analytics/pnl.sh", directory.path, "--json"], environment: environment,
            timeout: 400)
        #expect(duck.succeeded, "\(duck)")
        print(
            "10,000 accounts: generated in \(generated - started), Swift totalled in \(totalled - generated),"
                + " DuckDB (verifier included) in \(clock.now - totalled)")
        #expect(duck.stderr.contains("altered-1.json"), "the verifier names the altered summary")
        let duckJSON = try JSONSerialization.jsonObject(with: Data(duck.stdout.utf8)) as? NSDictionary
        #expect(duckJSON != nil && duckJSON == swiftJSON, "DuckDB and Swift differ:\n\(duck.stdout.prefix(3000))")
        let all = try #require(swift.report.period("all"))
        #expect(all.features.count == features.count && all.total.charges > 10_000)
        #expect(all.features.first { $0.feature == "cleanPassage" }?.losesMoney == true)
        #expect(all.features.first { $0.feature == "send" }?.oftenDeclined == true)
    }
}

/// A made-up account's summary: a few features on a few of the last 40 days, all on one device.
enum GeneratedSummary {
    static func make(
        key: P256PrivateKey, features: [String], reasons: [String], random: inout SeededRandom,
        exportedDaysAgo: Int64 = 0, head: Int64 = 100
    ) throws -> AccountSummary {
        let exportedAt = KnownLedger.asOf.adding(days: -exportedDaysAgo).adding(
            days: -Int64.random(in: 0...1, using: &random))
        var days: [SummaryDay] = []
        var declines: [SummaryDecline] = []
        for dayBack in Set(
            (0..<Int.random(in: 1...4, using: &random)).map { _ in Int64.random(in: 0...40, using: &random) }
        )
        .sorted(by: >) {
            let day = String(exportedAt.adding(days: -dayBack).iso8601.prefix(10))
            for feature in Set((0..<Int.random(in: 1...3, using: &random)).map { _ in random.pick(features) }).sorted()
            {
                let charges = Int64.random(in: 1...6, using: &random)
                let price = feature == "createVault" ? 100_000 : feature == "transcript" ? 30_000 : 10_000
                let charged = charges * Int64(price) * Int64.random(in: 1...3, using: &random)
                // Sending is declined every time (often declined); the rest now and then.
                let declined = feature == "send" ? charges : Int64.random(in: 0...charges, using: &random) / 2
                let givenBack = declined * Int64(price)
                // Sub-penny costs; a clean passage's above its price (a feature that loses money).
                let cost =
                    feature == "cleanPassage"
                    ? charges * Int64.random(in: 15_000...45_000, using: &random)
                    : charges * Int64.random(in: 0...4_800, using: &random)
                days.append(
                    SummaryDay(
                        day: day, feature: feature, charges: charges, charged: charged, declined: declined,
                        givenBack: givenBack, cost: cost))
                if declined > 0 {
                    let reason = random.pick(reasons)
                    declines.append(
                        SummaryDecline(
                            day: day, feature: feature, reason: reason, count: declined, givenBack: givenBack))
                }
            }
        }
        let (credit, money) = try moneyRows(days: days.map(\.day), random: &random)
        var summary = AccountSummary(
            account: AccountSummary.accountID(for: key.publicKey), exportedAt: exportedAt.iso8601,
            publicKey: Base64URL.encode(key.publicKey.derRepresentation), costsArePlaceholders: true,
            devices: [
                SummaryDevice(
                    device: SummaryDevice.pseudonym(of: "device-1", publicKey: key.publicKey), head: head, days: days,
                    declines: declines, credit: credit, money: money)
            ])
        summary.commission = CommissionRate(name: "small-business", basisPoints: 1500)
        summary.moneyArePlaceholders = true
        try summary.sign(with: key)
        return summary
    }

    /// An account's credit and money rows: the opening on its first day, and on some days a £5.00 top-up in GBR
    /// (now and then half of it refunded) or a $4.99 one in the USA (tax unknown), worked out as an export does.
    static func moneyRows(days: [String], random: inout SeededRandom) throws -> ([SummaryCredit], [SummaryMoney]) {
        guard let first = days.min() else { return ([], []) }
        var credit = [SummaryCredit(day: first, kind: "givenFree", count: 1, amount: 5_000_000)]
        var money: [SummaryMoney] = []
        let sale = try MoneySplit(gross: 5_000_000, taxBasisPoints: 2000, commissionBasisPoints: 1500)
        for day in Set(days).sorted() where Int.random(in: 0..<3, using: &random) == 0 {
            if Bool.random(using: &random) {
                credit.append(SummaryCredit(day: day, kind: "sold", count: 1, amount: 5_000_000))
                money.append(row(day, "sale", "GBP", "GBR", true, sale))
                if Int.random(in: 0..<4, using: &random) == 0 {
                    credit.append(SummaryCredit(day: day, kind: "takenBack", count: 1, amount: 2_500_000))
                    money.append(row(day, "refund", "GBP", "GBR", true, try sale.share(milliPercent: 50_000)))
                }
            } else {
                credit.append(SummaryCredit(day: day, kind: "sold", count: 1, amount: 5_000_000))
                money.append(
                    row(
                        day, "sale", "USD", "USA", false,
                        MoneySplit(gross: 4_990_000, tax: 0, commission: 0, proceeds: 0)))
            }
        }
        return (
            credit.sorted { ($0.day, $0.kind) < ($1.day, $1.kind) },
            money.sorted { ($0.day, $0.kind) < ($1.day, $1.kind) }
        )
    }

    private static func row(
        _ day: String, _ kind: String, _ currency: String, _ storefront: String, _ taxKnown: Bool, _ split: MoneySplit
    ) -> SummaryMoney {
        SummaryMoney(
            day: day, kind: kind, currency: currency, storefront: storefront, taxKnown: taxKnown, count: 1,
            gross: split.gross, tax: split.tax, commission: split.commission, proceeds: split.proceeds)
    }
}
