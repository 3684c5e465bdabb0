import OptionParsing

/// `credit export --summary FILE`: what this account may share, as a signed summary.
struct ExportCommand: CreditCommand {
    static let summary = Option.string(.summary, "FILE", help: "where to write the summary").required()

    static let configuration = CommandSpec(
        "export", summary: "write what this account may share: a signed summary",
        discussion: """
            Writes what one account may share for `credit pnl --summaries`: for each device (a pseudonym, and the
            last sequence of its entries here), per day and feature, counts and amounts (charged, declined, given
            back) and the cost figures, and the credit and money of top-ups and refunds (per day, currency and
            storefront, worked out with the app's money settings), with no subject, entry id, transaction id,
            receipt, token, text or device id, under a random account id
            that is the same in every export of this account, signed with the ledger's head key (its public key
            inside) so an altered summary is refused. The file is replaced atomically.
            """,
        options: [summary.spec])

    /// Where to write the summary.
    let summary: String

    var accountUse: AccountUse { .needsAccount(lacking: "there is no summary to export, and nothing was written") }

    init(_ arguments: ParsedArguments) throws(UsageError) { summary = try arguments.value(of: Self.summary) }

    func run(_ context: Context) throws -> Int32 { try CreditCLI.exportSummary(to: summary, context) }
}
