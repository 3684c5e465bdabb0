import CreditLedger
import Foundation
import Signing
import Testing

@testable import AccountSummaries

/// The all-accounts sums on every core (`SummarySums.parallel`) are the definition's (`SummarySums.serial`: account by
/// account, each added whole or left out) whenever they are given, and are not given when the definition might leave
/// an account out; the totals do not depend on the order the files come in.
@Suite struct SummarySumsTests {
    static let asOf = Timestamp(iso8601: "2026-11-29T12:00:00.000Z")!
    static let startDays = ProfitAndLossReport.windows.map {
        String(ProfitAndLossReport.windowStart(asOf: asOf, days: $0).iso8601.prefix(10))
    }

    /// 300 generated accounts (money in pounds and dollars, refunds, declines), and one whose summary is v2 (no
    /// money), as files `s0.json` ...
    private func generated() throws -> [(file: String, summary: AccountSummary)] {
        var random = SeededRandom(seed: 2026)
        let features = ["transcript", "debrief", "cleanPassage", "createVault", "saveToVault", "pushVault", "send"]
        let reasons = ["not-usable", "not-needed", "test", "other"]
        var verified: [(file: String, summary: AccountSummary)] = []
        for index in 0..<300 {
            let summary = try GeneratedSummary.make(
                key: try P256PrivateKey.generate(), features: features, reasons: reasons, random: &random)
            verified.append(("s\(index).json", summary))
        }
        var old = verified[0].summary
        old.account = "v2-account"
        old.format = AccountSummary.deviceSectionsFormatName
        old.devices = old.devices?.map {
            SummaryDevice(device: $0.device, head: $0.head, days: $0.days, declines: $0.declines)
        }
        verified.append(("v2.json", old))
        return verified
    }

    /// What the sums come to: every period's P&L and money, the accounts, the placeholders, what was left out.
    private func figures(_ sums: SummarySums) throws -> String {
        let lines = try sums.tallies.map { try $0.period("p", days: nil, since: nil, oftenDeclinedBasisPoints: 2000) }
        return "\(lines)\n\(try sums.money.periods())\n\(sums.accounts) \(sums.placeholders) \(sums.leftOut)"
    }

    private func accounts(_ verified: [(file: String, summary: AccountSummary)]) -> [[SummarySelection.Chosen]] {
        SummarySelection(verified).byAccount
    }

    @Test func onEveryCoreTheSumsAreTheDefinitions() throws {
        let accounts = accounts(try generated())
        let parallel = try #require(
            SummarySums.parallel(accounts, startDays: Self.startDays, tax: .app), "the bounds hold")
        let serial = try SummarySums.serial(accounts, startDays: Self.startDays, tax: .app)
        #expect(try figures(parallel) == figures(serial))
        #expect(parallel.accounts == 301 && parallel.leftOut.isEmpty && parallel.money.accountsWithoutMoney == 1)
    }

    @Test func theTotalsDoNotDependOnTheOrderOfTheFiles() throws {
        let verified = try generated()
        var random = SeededRandom(seed: 7)
        let first = try SummaryTotaliser.total(verified, asOf: Self.asOf, tax: .app)
        for _ in 0..<3 {
            let again = try SummaryTotaliser.total(verified.shuffled(using: &random), asOf: Self.asOf, tax: .app)
            #expect(again.report == first.report && again.counted == first.counted)
        }
    }

    /// Totals the definition would leave accounts out of are never summed on every core: the definition decides.
    @Test func sumsTooLargeToBeSureOfAreTheDefinitions() throws {
        let key = try P256PrivateKey.generate()
        func summary(_ account: String, _ day: SummaryDay, money: [SummaryMoney] = []) -> AccountSummary {
            var summary = AccountSummary(
                account: account, exportedAt: "2026-11-29T12:00:00.000Z",
                publicKey: Base64URL.encode(key.publicKey.derRepresentation), costsArePlaceholders: true,
                devices: [
                    SummaryDevice(
                        device: String(repeating: "a", count: 32), head: 1, days: [day], declines: [], credit: [],
                        money: money)
                ])
            summary.commission = CommissionRate(name: "small-business", basisPoints: 1500)
            summary.moneyArePlaceholders = true
            return summary
        }
        let big = SummaryLimits.maximumFigure
        let cases: [[(file: String, summary: AccountSummary)]] = [
            // Charged beyond Int64 together: some left out.
            (0..<9_300).map { ("s\($0).json", summary("a\($0)", day("send", charges: big, charged: big))) },
            // A margin far beyond its net: left out alone.
            [("odd.json", summary("odd", day("send", charges: 1, charged: 1, cost: big)))],
            // Proceeds of about 7 x 10^14 (a gross of 10^15 in GBR, its tax and commission worked out by the app's
            // table) shared by a credit used of 1 in all (20,000 sent, 19,999 given back on debriefs): one feature's
            // share would be about 1.4 x 10^19, so the account added second is left out.
            [
                (
                    "rich.json",
                    summary(
                        "rich", day("send", charges: 1, charged: 20_000),
                        money: [
                            SummaryMoney(
                                day: "2026-11-28", kind: "sale", currency: "GBP", storefront: "GBR", taxKnown: true,
                                count: 1, gross: big, tax: 0, commission: 0, proceeds: big)
                        ])
                ),
                ("poor.json", summary("poor", day("debrief", charges: 0, charged: 0, givenBack: 19_999))),
            ],
        ]
        for verified in cases {
            let accounts = accounts(verified)
            #expect(SummarySums.parallel(accounts, startDays: Self.startDays, tax: .app) == nil)
            let serial = try SummarySums.serial(accounts, startDays: Self.startDays, tax: .app)
            #expect(try figures(SummarySums.of(accounts, startDays: Self.startDays, tax: .app)) == figures(serial))
        }
        let serial = try SummarySums.serial(accounts(cases[0]), startDays: Self.startDays, tax: .app)
        #expect(!serial.leftOut.isEmpty && serial.accounts + serial.leftOut.count == 9_300)
        let shared = try SummarySums.serial(accounts(cases[2]), startDays: Self.startDays, tax: .app)
        #expect(shared.leftOut.map(\.file) == ["rich.json"] && shared.accounts == 1, "\(shared.leftOut)")
    }

    private func day(
        _ feature: String, charges: Int64, charged: Int64, givenBack: Int64 = 0, cost: Int64 = 0
    ) -> SummaryDay {
        SummaryDay(
            day: "2026-11-28", feature: feature, charges: charges, charged: charged, declined: givenBack > 0 ? 1 : 0,
            givenBack: givenBack, cost: cost)
    }
}
