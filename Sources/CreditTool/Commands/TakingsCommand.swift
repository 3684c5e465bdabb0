import CreditLedger
import OptionParsing

/// `credit takings [--days 7|30]`: takings by feature.
struct TakingsCommand: CreditCommand {
    static let days = Option.choice(.days, ReportDays.self, help: "the last 7 or 30 days only")

    static let configuration = CommandSpec(
        "takings", summary: "takings by feature: the P&L of every feature",
        discussion: """
            Takings by feature: how many charges and how much, how many declined and what was given back, and the
            net. Over all time, or the last 7 or 30 days.
            --json: [{"feature","charges","charged","declined","givenBack","net"}] (amounts in micro-credits).
            """,
        options: [days.spec])

    let days: ReportDays?

    var accountUse: AccountUse { .reads }

    init(_ arguments: ParsedArguments) throws(UsageError) { days = try arguments.value(of: Self.days) }

    func run(_ context: Context) throws -> Int32 {
        let ledger = try context.openLedger()
        let lines =
            try days.map { try FeatureTakings.list(in: ledger, lastDays: $0.count) } ?? FeatureTakings.list(in: ledger)
        if context.json {
            try printJSON(lines.map(LedgerOutputs.Takings.init))
            return CreditCLI.success
        }
        print(context.style.bold("Takings by feature, " + (days.map { "the last \($0.count) days" } ?? "all time")))
        print(lines.isEmpty ? "  Nothing charged yet." : LedgerCommands.takingsTable(lines))
        return CreditCLI.success
    }
}
