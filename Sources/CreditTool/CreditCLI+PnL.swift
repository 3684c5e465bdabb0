import AccountSummaries
import CreditLedger
import DurableFiles
import Foundation
import OptionParsing
import PnLReport
import VoiceDebriefCredit

/// The owner's commands: `credit pnl` (the P&L of this ledger, or of every account's summary), `credit report` (the
/// page) and `credit export --summary` (what one account may share).
extension CreditCLI {
    /// What the P&L cannot show when it comes from summaries: said wherever it is shown.
    static let registryCaveat =
        "A summary made up under a new key of its own cannot be told from a real account until there is a registry "
        + "of accounts."

    /// `credit pnl`: the P&L of this ledger, or with `summaries` of every account's summary in it; its table of
    /// the last `days` only when given.
    static func pnl(days: ReportDays?, summaries: String?, _ context: Context) throws -> Int32 {
        let report: ProfitAndLossReport
        var counts: String?
        if let directory = summaries {
            (report, counts) = try summariesTotal(directory)
            if context.json { printError("credit: note: " + CreditCLI.registryCaveat) }
        } else {
            report = try ledgerReport(context.openLedger(), context)
        }
        if context.json {
            print(try PnLPage.json(report))
            return CreditCLI.success
        }
        let name = days.map { $0.rawValue + "d" } ?? "all"
        guard let period = report.period(name) else { throw CreditFailure.noPeriod(name) }
        // Features in the price list's words with the key beside them, from a ledger or from summaries (whose table
        // analytics/pnl_text.py writes line for line, from analytics/feature_names.json).
        print(PnLText(report: report, period: period, style: context.style).text)
        if let money = period.money {
            let title = PnLText.periodTitles[period.period] ?? period.period
            print(PnLMoneyText(money: money, title: title + ", " + PnLText.scope(report), style: context.style).text)
        }
        if let counts {
            print(counts)
            print(CreditCLI.registryCaveat)
        }
        return CreditCLI.success
    }

    /// The all-accounts P&L of the summaries in `directory` and what was counted, in words; each summary left out
    /// is named on standard error. A directory with nothing to count is a failure, said in words: there is no
    /// as-of to give and nothing to total.
    private static func summariesTotal(_ directory: String) throws -> (ProfitAndLossReport, String) {
        let total: SummaryTotal
        do {
            total = try SummaryTotaliser.total(
                directory: directory, tax: StorefrontTax(VoiceDebriefMoney.taxByStorefront))
        } catch {
            throw CreditFailure.unreadableSummaries(directory: directory, why: PlainWords.describe(error))
        }
        for bad in total.rejected { printError("credit: left out: \(bad.file): \(bad.reason)") }
        guard !total.counted.isEmpty else {
            throw CreditFailure.nothingToTotal(directory: directory, nothingThere: total.rejected.isEmpty)
        }
        // Said as analytics/pnl_text.py says it: an account's devices may come in several summaries.
        let counts =
            "\(CountNoun("account", "accounts")(total.report.accounts)) counted, from "
            + "\(CountNoun("summary", "summaries")(total.counted.count)); "
            + "\(CountNoun("older export", "older exports")(total.superseded.count)) superseded; "
            + (total.rejected.isEmpty
                ? "none left out."
                : "\(CountNoun("summary", "summaries")(total.rejected.count)) left out (named above).")
        return (total.report, counts)
    }

    /// `credit report`: this account's page, or with `--summaries DIR` every account's. Written 0644, readable by
    /// others: it is for sharing (and holds no key, id or token; the data directory's own files stay 0600).
    static func writeReport(out: String?, summaries: String?, _ context: Context) throws -> Int32 {
        let path = out ?? FileManager.default.currentDirectoryPath + "/credit-report.html"
        let names = VoiceDebriefPrices().featureNames
        let content: PnLPageContent
        if let directory = summaries {
            let (report, counts) = try summariesTotal(directory)
            content = PnLPageContent(summaries: report, featureNames: names, basis: counts)
        } else {
            let ledger = try context.openLedger()
            content = try PnLPageContent(
                title: "Profit and loss", report: try ledgerReport(ledger, context),
                entries: ledger.distinctEntriesUnordered, featureNames: names)
        }
        try OutputPath.write(
            Array(try PnLPage.render(content).utf8), to: path, what: "the page", suggesting: "pnl.html", mode: 0o644)
        if context.json {
            try printJSON(LedgerOutputs.Written(written: path))
        } else {
            let what = content.report.source == .summaries ? "the P&L page of all accounts" : "the P&L page"
            print("Wrote \(what) to \(path) (one self-contained file: open it in a browser).")
        }
        return CreditCLI.success
    }

    /// `credit export --summary FILE`: what this account may share, signed, written to `path`.
    static func exportSummary(to path: String, _ context: Context) throws -> Int32 {
        let ledger = try context.openLedger()
        let keys: LedgerKeys
        do {
            keys = try LedgerKeys.load(from: context.dataDirectory)
        } catch {
            throw CreditFailure.noHeadKey(why: PlainWords.describe(error))
        }
        let summary = try AccountSummary.make(
            ledger: ledger, keys: keys, exportedAt: context.clock.now(), prices: VoiceDebriefPrices(),
            costs: VoiceDebriefCosts(), money: VoiceDebriefMoney())
        try OutputPath.write(try summary.encodedJSON(), to: path, what: "the summary", suggesting: "summary.json")
        if context.json {
            try printJSON(LedgerOutputs.Written(written: path, account: summary.account))
        } else {
            print(
                "Wrote the signed summary of account \(summary.account) to \(path): counts and amounts per day and "
                    + "feature, no subject, entry id, text or device id.")
        }
        return CreditCLI.success
    }

    private static func ledgerReport(_ ledger: Ledger, _ context: Context) throws -> ProfitAndLossReport {
        try ProfitAndLossReport.make(
            ledger: ledger,
            asOf: context.clock.now(), prices: VoiceDebriefPrices(), costs: VoiceDebriefCosts(),
            money: VoiceDebriefMoney())
    }
}

/// One period of the P&L as a terminal table: a line per feature (in the price list's words with its key beside it,
/// ``LedgerCommands/featureCell(_:)``), the total, and what stands out said in words.
struct PnLText {
    var report: ProfitAndLossReport
    var period: PeriodProfitAndLoss
    var style: Style

    static let periodTitles = ["all": "all time", "30d": "the last 30 days", "7d": "the last 7 days"]

    /// Whose figures: `this account`, `1 account`, `all 12 accounts`.
    static func scope(_ report: ProfitAndLossReport) -> String {
        report.source == .summaries
            ? (report.accounts == 1 ? "1 account" : "all \(report.accounts) accounts") : "this account"
    }

    var text: String {
        let scope = PnLText.scope(report)
        var out = [
            style.bold("Profit and loss by feature, \(PnLText.periodTitles[period.period] ?? period.period), \(scope)")
        ]
        guard period.total.charges > 0 || !period.features.isEmpty else {
            out.append("  Nothing charged yet.")
            return out.joined(separator: "\n")
        }
        var rows = [
            [
                "Feature", "Charges", "Charged", "Declined", "Share", "Given back", "Net", "Cost*", "Margin*",
                "Margin %", "Stands out",
            ]
        ]
        rows += period.features.map(row)
        rows.append(row(period.total))
        out.append(table(rows, rightAligned: Set(1...9)))
        if report.costsArePlaceholders {
            out.append("* Every cost is a placeholder, as every price is, and so is every margin made from one.")
        }
        out.append(
            "Costs count every charge, declined or not. LOSES MONEY: a margin below zero; OFTEN DECLINED: "
                + "\(PnLText.percent(report.oftenDeclinedBasisPoints)) of its charges or more declined.")
        return out.joined(separator: "\n")
    }

    private func row(_ line: FeatureProfitAndLoss) -> [String] {
        var marks: [String] = []
        if line.losesMoney { marks.append(style.bad("LOSES MONEY")) }
        if line.oftenDeclined { marks.append(style.warm("OFTEN DECLINED")) }
        return [
            line.feature == "total" ? "Total" : LedgerCommands.featureCell(line.feature),
            String(line.charges),
            MicroCredits(line.charged).formatted, String(line.declined),
            line.declinedShareBasisPoints.map(PnLText.percent) ?? "-", MicroCredits(line.givenBack).formatted,
            MicroCredits(line.net).formatted, MicroCredits(line.cost).formatted + "*",
            MicroCredits(line.margin).formatted + "*", line.marginBasisPoints.map(PnLText.percent) ?? "-",
            marks.joined(separator: ", "),
        ]
    }

    /// Basis points as a percentage with up to two decimals: 1250 is "12.5%".
    static func percent(_ basisPoints: Int) -> String {
        let sign = basisPoints < 0 ? "-" : ""
        let magnitude = basisPoints.magnitude
        var fraction = String(magnitude % 100)
        if fraction.count < 2 { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return sign + String(magnitude / 100) + (fraction.isEmpty ? "" : "." + fraction) + "%"
    }
}
