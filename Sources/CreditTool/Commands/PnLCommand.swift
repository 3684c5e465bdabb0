import OptionParsing

/// `credit pnl [--days 7|30] [--summaries DIR]`: the owner's profit and loss of every feature.
struct PnLCommand: CreditCommand {
    static let days = Option.choice(
        .days, ReportDays.self, help: "the table of the last 7 or 30 days only (from midnight UTC)")
    static let summaries = Option.string(.summaries, "DIR", help: "the P&L of all accounts, from the summaries in DIR")

    static let configuration = CommandSpec(
        "pnl", summary: "the owner's profit and loss of every feature (costs are placeholders)",
        discussion: """
            The profit and loss of every feature: charges, charged, declined (count and share of charges), given
            back, net takings, cost, margin and margin %, and the totals. A feature that loses money or is often
            declined is marked in words. Every cost is a placeholder. Costs count every charge, declined or not.
            Then the money: top-ups, gross paid, tax, Apple's commission, proceeds, refunded (partial refunds
            included), kept, by currency (never converted), read from each top-up's signed transaction (a
            simulated top-up is no money taken); the credit sold, given free, used, outstanding (balances above
            zero) and below zero (used and not paid for); and each feature's share of the proceeds kept, by its
            share of the credit used, beside its cost and margin (in pounds only). The commission (15%) and the
            tax by storefront (GBR 20% VAT; any other storefront: tax unknown, proceeds not worked out) are
            placeholders. Tax and commission are rounded to the nearest micro-unit, a half away from zero.
            With --summaries DIR: the P&L of all accounts together, from the signed summaries in DIR (see `credit
            export`): each one is verified, a bad one is named on standard error and left out, and for each
            account and device the export that covers the most of that device's entries is counted, so exports
            from any devices, merged or not, count every entry once. A directory with nothing to count is exit 1.
            A summary made up under a new key of its own cannot be told from a real account until there is a
            registry of accounts.
            An account whose summary came before money was summarised (v2) counts in the features and is left
            out of the money, said so.
            --json prints every period (all, 30d, 7d) in the voicedebrief-pnl-v1 shape, amounts in micro-credits
            and money (key money in each period) in micro-units of its currency, the same JSON as
            `bash analytics/pnl.sh DIR --json`.
            The last 7 (or 30) days start at midnight UTC on the day 7 (or 30) days before today (or the as-of
            day): the same window for one account, for --summaries and for analytics/pnl.sh, since a summary
            knows days, not moments.
            """,
        options: [days.spec, summaries.spec])

    let days: ReportDays?
    /// `--summaries DIR`: the P&L of all accounts, from their summaries; the data directory is not used.
    let summaries: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        days = try arguments.value(of: Self.days)
        summaries = try arguments.value(of: Self.summaries)
    }

    /// With `--summaries` the data directory is never used, so nothing is said of it.
    var accountUse: AccountUse { summaries == nil ? .reads : .makes }

    func run(_ context: Context) throws -> Int32 { try CreditCLI.pnl(days: days, summaries: summaries, context) }
}
