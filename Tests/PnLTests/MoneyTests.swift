import AccountSummaries
import CreditLedger
import Foundation
import Signing
import Testing
import VoiceDebriefCredit

/// Issue 26, in money: the money section of a known ledger worked by hand, a partial refund's money, a storefront
/// whose tax is unknown, another currency kept apart, and the same figures from a summary.
@Suite struct MoneyTests {
    private let key = try! P256PrivateKey.generate()

    private func report(_ entries: [LedgerEntry] = MoneyLedger.entries) throws -> ProfitAndLossReport {
        try ProfitAndLossReport.make(
            entries: entries, asOf: MoneyLedger.asOf, prices: VoiceDebriefPrices(), costs: VoiceDebriefCosts(),
            money: VoiceDebriefMoney())
    }

    private func money(_ report: ProfitAndLossReport, _ period: String) throws -> PeriodMoney {
        try #require(report.period(period)?.money)
    }
}

extension MoneyTests {
    /// £5.00 in GBR at 15%: VAT is 5,000,000 × 20/120 = 833,333.33, rounded to 833,333; the commission is 15% of the
    /// 4,166,667 left, 625,000.05, rounded to 625,000; the proceeds are what is left, 3,541,667.
    @Test func aFivePoundTopUpInTheUKWorkedByHand() throws {
        let split = try MoneySplit(gross: 5_000_000, taxBasisPoints: 2000, commissionBasisPoints: 1500)
        #expect(split == MoneySplit(gross: 5_000_000, tax: 833_333, commission: 625_000, proceeds: 3_541_667))
        #expect(CurrencyAmount.formatted(split.tax, currency: "GBP") == "£0.833333")
        #expect(CurrencyAmount.formatted(split.commission, currency: "GBP") == "£0.625")
        #expect(CurrencyAmount.formatted(split.proceeds, currency: "GBP") == "£3.541667")
        // The standard 30%, the named alternative: 1,250,000.1 rounded to 1,250,000.
        let standard = try MoneySplit(
            gross: 5_000_000, taxBasisPoints: 2000, commissionBasisPoints: CommissionRate.standard.basisPoints)
        #expect(standard == MoneySplit(gross: 5_000_000, tax: 833_333, commission: 1_250_000, proceeds: 2_916_667))
    }

    /// The rounding rule: to the nearest micro-unit, a half away from zero, exact in 128 bits; overflow throws.
    @Test func roundingIsToTheNearestWithAHalfAwayFromZero() throws {
        #expect(try MoneySplit.rounded(5, times: 1, over: 2) == 3)
        #expect(try MoneySplit.rounded(-5, times: 1, over: 2) == -3)
        #expect(try MoneySplit.rounded(7, times: 1, over: 3) == 2)
        #expect(try MoneySplit.rounded(8, times: 1, over: 3) == 3)
        #expect(try MoneySplit.rounded(833_333, times: 50_000, over: 100_000) == 416_667)
        #expect(try MoneySplit.rounded(Int64.max, times: 3, over: 4) == 6_917_529_027_641_081_855)
        #expect(throws: LedgerError.self) { try MoneySplit.rounded(Int64.max, times: 2, over: 1) }
    }

    /// Half of the £5.00 refunded: gross 2,500,000; tax 416,666.5 → 416,667; commission 312,500; proceeds taken
    /// back what is left, 1,770,833; kept 3,541,667 − 1,770,833 = 1,770,834.
    @Test func aPartialRefundTakesBackItsShareOfTheMoney() throws {
        let pounds = try #require(try money(report(), "all").currencies.first { $0.currency == "GBP" })
        #expect(pounds.topUps == 1 && pounds.gross == 5_000_000 && pounds.tax == 833_333)
        #expect(pounds.commission == 625_000 && pounds.proceeds == 3_541_667)
        #expect(pounds.refunds == 1 && pounds.refundedGross == 2_500_000 && pounds.refunded == 1_770_833)
        #expect(pounds.reinstatements == 0 && pounds.reinstated == 0 && pounds.kept == 1_770_834)
        #expect(pounds.taxUnknownTopUps == 0 && pounds.taxUnknownGross == 0)
    }

    /// $4.99 from the USA, whose tax is not in the app's table: counted as paid, in dollars, no proceeds guessed.
    @Test func aStorefrontWithUnknownTaxIsCountedAsPaidInItsOwnCurrency() throws {
        let section = try money(report(), "all")
        #expect(section.currencies.map(\.currency) == ["GBP", "USD"], "each currency apart, never converted")
        let dollars = try #require(section.currencies.first { $0.currency == "USD" })
        #expect(dollars.topUps == 1 && dollars.gross == 4_990_000)
        #expect(dollars.tax == 0 && dollars.commission == 0 && dollars.proceeds == 0 && dollars.kept == 0)
        #expect(dollars.taxUnknownTopUps == 1 && dollars.taxUnknownGross == 4_990_000)
        #expect(dollars.features.allSatisfy { $0.cost == nil && $0.margin == nil }, "costs are in pounds only")
        #expect(CurrencyAmount.formatted(dollars.gross, currency: "USD") == "USD 4.99")
    }

    /// The credit: £5.00 given free, £10.00 sold, £5.00 simulated (no money taken), £2.50 taken back, £0.11 used;
    /// the balance (£5.00 + £5.00 − £0.11 − £2.50 + £5.00 + £5.00) £17.39 outstanding. Each feature's share of the
    /// £1.770834 kept, by its share of the 11p used: transcript 6/11 (965,909.45 → 965,909), debrief 5/11
    /// (804,924.55 → 804,925), beside its cost.
    @Test func theCreditAndEachFeaturesShareWorkedByHand() throws {
        let section = try money(report(), "all")
        #expect(
            section.credit
                == CreditMoney(
                    sold: 10_000_000, simulated: 5_000_000, givenFree: 5_000_000, takenBack: 2_500_000, reinstated: 0,
                    used: 110_000, outstanding: 17_390_000, belowZero: 0, accountsBelowZero: 0))
        #expect(section.simulatedTopUps == 1)
        #expect(section.commission == CommissionRate(name: "small-business", basisPoints: 1500))
        #expect(section.placeholders && section.featureMethod == "share-of-credit-used")
        let pounds = try #require(section.currencies.first { $0.currency == "GBP" })
        #expect(
            pounds.features == [
                FeatureMoney(feature: "transcript", used: 60_000, proceeds: 965_909, cost: 9_600, margin: 956_309),
                FeatureMoney(feature: "debrief", used: 50_000, proceeds: 804_925, cost: 2_500, margin: 802_425),
            ])
    }

    /// The last 7 days (from 22 November): the charges, the refund and the dollar top-up, not October's sale; the
    /// balances are as of the as-of in every period.
    @Test func eachPeriodCountsWhatWasWrittenInItAndTheBalancesAsOfNow() throws {
        let week = try money(report(), "7d")
        let pounds = try #require(week.currencies.first { $0.currency == "GBP" })
        #expect(pounds.topUps == 0 && pounds.proceeds == 0 && pounds.refunded == 1_770_833)
        #expect(pounds.kept == -1_770_833, "a refund of an older sale: the week kept less than nothing")
        #expect(week.credit.sold == 5_000_000 && week.credit.givenFree == 0 && week.credit.outstanding == 17_390_000)
    }

    /// Below zero: used and not paid for, what the honesty box has not collected.
    @Test func aBalanceBelowZeroIsSaid() throws {
        let entries = [
            MoneyLedger.entry(1, "opening", "2026-11-01", .opening, 5_000_000),
            MoneyLedger.entry(2, "c-big", "2026-11-28", .charge, -5_300_000, feature: "transcript", quantity: 177),
        ]
        let section = try money(report(entries), "all")
        #expect(section.credit.outstanding == 0 && section.credit.belowZero == 300_000)
        #expect(section.credit.accountsBelowZero == 1 && section.currencies.isEmpty)
    }

    /// A reinstatement gives back exactly what its reversal took, credit and money.
    @Test func aReinstatementGivesTheRefundsMoneyBack() throws {
        var entries = MoneyLedger.entries
        entries.append(
            MoneyLedger.entry(
                8, "reinstated-mockstore-1-1795900000000-50000", "2026-11-28", .topup, 2_500_000,
                refersTo: "reversal-mockstore-1-1795900000000-50000",
                receipt: MoneyLedger.receipt(price: 5_000, currency: "GBP", storefront: "GBR")))
        let section = try money(report(entries), "all")
        let pounds = try #require(section.currencies.first { $0.currency == "GBP" })
        #expect(pounds.topUps == 1, "a reinstatement is not a sale")
        #expect(pounds.reinstatements == 1 && pounds.reinstated == 1_770_833 && pounds.kept == 3_541_667)
        #expect(section.credit.reinstated == 2_500_000 && section.credit.sold == 10_000_000)
    }
}

extension MoneyTests {
    /// The summary carries what the money section needs, and nothing that names a transaction or a receipt; totalled,
    /// it gives the ledger's own money section, every period.
    @Test func aSummaryGivesTheLedgersMoneySection() throws {
        let summary = try AccountSummary.make(
            entries: MoneyLedger.entries, exportedAt: MoneyLedger.asOf, prices: VoiceDebriefPrices(),
            costs: VoiceDebriefCosts(), money: VoiceDebriefMoney(), headKey: key)
        let text = String(decoding: try summary.encodedJSON(), as: UTF8.self)
        for secret in ["2000000001", "topup-mockstore", "reversal-", "device-a", "ES256", "eyJ"] {
            #expect(!text.contains(secret), "\(secret) is not in a summary")
        }
        let verified = try AccountSummary.verified(from: try summary.encodedJSON())
        let total = try SummaryTotaliser.total([("s.json", verified)], asOf: MoneyLedger.asOf, tax: .app)
        let ledger = try report()
        for period in ["all", "30d", "7d"] {
            #expect(try money(total.report, period) == money(ledger, period), "\(period)")
        }
    }

    /// A v2 summary (before money was summarised) still counts in the features, and its account is said to have no
    /// money rather than counted as having none.
    @Test func anAccountWithAnOlderSummaryIsLeftOutOfTheMoneyAndSaidSo() throws {
        var old = try AccountSummary.make(
            entries: MoneyLedger.entries, exportedAt: MoneyLedger.asOf, prices: VoiceDebriefPrices(),
            costs: VoiceDebriefCosts(), money: VoiceDebriefMoney(), headKey: key)
        old.format = AccountSummary.deviceSectionsFormatName
        old.commission = nil
        old.moneyArePlaceholders = nil
        old.devices = old.devices?.map {
            SummaryDevice(device: $0.device, head: $0.head, days: $0.days, declines: $0.declines)
        }
        try old.sign(with: key)
        let verified = try AccountSummary.verified(from: try old.encodedJSON())
        let total = try SummaryTotaliser.total([("old.json", verified)], asOf: MoneyLedger.asOf, tax: .app)
        let section = try money(total.report, "all")
        #expect(total.report.accounts == 1 && total.report.period("all")?.total.charges == 2)
        #expect(section.accountsWithoutMoney == 1 && section.accountsCounted == 0 && section.currencies.isEmpty)
        #expect(section.credit.outstanding == 0 && section.commission == nil)
    }

    /// A v3 money row must add up, name a kind and codes; a v2 summary may not carry money rows.
    @Test func aMoneyRowThatDoesNotAddUpIsRefused() throws {
        var summary = try AccountSummary.make(
            entries: MoneyLedger.entries, exportedAt: MoneyLedger.asOf, prices: VoiceDebriefPrices(),
            costs: VoiceDebriefCosts(), money: VoiceDebriefMoney(), headKey: key)
        var section = try #require(summary.devices?.first)
        var row = try #require(section.money?.first { $0.kind == "sale" && $0.currency == "GBP" })
        row.proceeds += 1
        section.money = [row]
        summary.devices = [section]
        try summary.sign(with: key)
        #expect(throws: SummaryError.self) { try AccountSummary.verified(from: try summary.encodedJSON()) }
        row.proceeds -= 1
        row.currency = "pounds"
        section.money = [row]
        summary.devices = [section]
        try summary.sign(with: key)
        #expect(throws: SummaryError.self) { try AccountSummary.verified(from: try summary.encodedJSON()) }
        summary.format = AccountSummary.deviceSectionsFormatName
        summary.commission = nil
        summary.moneyArePlaceholders = nil
        try summary.sign(with: key)
        #expect(throws: SummaryError.self) { try AccountSummary.verified(from: try summary.encodedJSON()) }
    }
}
