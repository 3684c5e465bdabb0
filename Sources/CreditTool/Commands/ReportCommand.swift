import OptionParsing

/// `credit report [--out FILE] [--summaries DIR]`: the P&L as one self-contained HTML page.
struct ReportCommand: CreditCommand {
    static let out = Option.string(.out, "FILE", help: "where to write it (default: credit-report.html here)")
    static let summaries = Option.string(
        .summaries, "DIR", help: "the page of all accounts, from the summaries in DIR")

    static let configuration = CommandSpec(
        "report", summary: "write the P&L as one self-contained HTML page",
        discussion: """
            Writes one self-contained HTML page (no network, no external script, font or image), readable by
            others (mode 0644: it is for sharing; it holds no key, id or token): the headline figures (net
            takings, margin, proceeds, credit outstanding, accounts below zero), then for all time, 30 and 7 days
            the balance over time, net takings and margin by feature (every bar labelled with its figure), declines
            by reason, the P&L's table and the money; features named in the price list's words, the key beside
            them; dates as people write them (29 November 2026, UTC). The same figures as `credit pnl --json`,
            which the page holds too. Subjects and texts are shown as data: escaped, each on its own, and any
            invisible character that could reorder the page (right-to-left overrides, isolates, marks) shown as
            its code, [U+202E].
            With --summaries DIR: the page of all accounts together, from the signed summaries in DIR, the same
            figures as `credit pnl --summaries DIR --json` (each summary verified, a bad one named on standard
            error and left out; a directory with nothing to count is exit 1). A summary has no balance and no
            declines' words, so that page has neither.
            The file is replaced atomically. Says where it was written.
            """,
        options: [out.spec, summaries.spec])

    /// Where to write the page; nil: credit-report.html in the working directory.
    let out: String?
    let summaries: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        out = try arguments.value(of: Self.out)
        summaries = try arguments.value(of: Self.summaries)
    }

    func run(_ context: Context) throws -> Int32 { try CreditCLI.writeReport(out: out, summaries: summaries, context) }
}
