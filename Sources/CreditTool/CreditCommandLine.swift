import CreditLedger
import OptionParsing
import VoiceDebriefCredit

/// The `credit` command line, declared: every command, its options and words, and the words of its `--help`.
/// Parsing and help both come from here (see OptionParsing).
enum CreditCommandLine {
    /// What `credit --version` prints.
    static let version = "credit 0.9.0"

    static let spec = CommandSpec(
        "credit", summary: "the VoiceDebrief credit, in a terminal.",
        discussion: """
            The balance starts at £5.00, counts down as the app is used, may go below zero, and never blocks anything.
            """,
        options: [
            .string(
                .dataDir, "DIR",
                help: "the data directory (default: $CREDIT_DATA_DIR, else $XDG_DATA_HOME/voicedebrief, "
                    + "else $HOME/.local/share/voicedebrief)"
            ).inherited(),
            .flag(.json, help: "output for scripts").inherited(),
        ],
        subcommands: CreditCommands.all.map(\.spec),
        defaultSubcommand: "screen", hasHelpCommand: true,
        epilogue: """
            Exit status: 0 done; 1 failed (the message says why); 64 the command line is wrong. With --json a
            failure also prints {"error": {"kind": "usage"|"failure", "message": …}} on standard output.
            Colour is used only on a terminal, and never when NO_COLOR is set.
            """, version: version)

    /// Each key's `--quantity` rule, for `charge --help` (from the price list, so help and checks agree).
    static var quantityRules: String {
        VoiceDebriefPrices().items.compactMap { item in
            item.unit.quantityRange.map {
                "\(item.key) \(ChargeLimits.words($0.lowerBound)) to \(ChargeLimits.words($0.upperBound))"
            }
        }.joined(separator: "; ")
    }

    static let screen = CommandSpec(
        "screen", summary: "the credit screen (the default when no command is given)",
        discussion: """
            The credit screen: the balance, what was used and topped up, the top-up on offer, takings by feature,
            every entry newest first with the balance after it, and the price list. Opening it first collects any
            purchase the store holds unfinished.
            """)

    static let balance = CommandSpec(
        "balance", summary: "the counter: the balance",
        discussion: """
            The counter: the balance. --json prints {"balance": <micro-credits>, "formatted": "£4.94"}.
            """)

    /// The words of one act: `credit charge`, and each line of `credit run`.
    static let charge = CommandSpec(
        "charge", summary: "charge one act (see `credit prices` for the keys)",
        discussion: """
            Charges one act that has been done. Recording and the other uncharged acts are refused: they are never
            charged. readNote needs --subject (the note): a note is charged once while the app is open, so
            without it the act is refused. --json prints the entry written (with "id", "amount", "balanceAfter"),
            or {"charged": false, "reason"}.
            """,
        options: [
            .integer(
                .seconds, "S", in: ChargeLimits.seconds, noun: "a number of seconds",
                // The parser states the range after the help: `(1 to 360,000)`, from ChargeLimits.seconds.
                help: "audio length, for a transcript (3p a started minute; at most 100 hours)"),
            .integer(
                .quantity, "N", in: 0...Int64.max, noun: "a number",
                help: "by key: " + quantityRules
                    + " (files saved, or things moved: 0 moves nothing, no charge); refused for any other key"),
            .string(
                .subject, "ID", maxBytes: InputLimits.subjectBytes,
                help:
                    "the note or vault it was for; readNote needs it "
                    + "(at most \(ChargeLimits.words(Int64(InputLimits.subjectBytes))) bytes)"
            ),
            .flag(.autoOpen, help: "the note opened by itself when a recording stopped: not charged"),
        ],
        positionals: [PositionalSpec(.key, help: "the key of the act to charge (see `credit prices`)")])

    static let decline = CommandSpec(
        "decline", summary: "decline a charge: it is given back as a new entry",
        discussion: """
            Declines a charge: its amount is given back as a new refund entry; the charge stays in the ledger.
            A charge can be declined once. --reason other needs --text with your words.
            """,
        options: [
            .choice(.reason, ["not-usable", "not-needed", "test", "other"], help: "why it is declined").required(),
            .string(
                .text, "T", maxBytes: InputLimits.textBytes,
                help:
                    "your words, with --reason other (at most \(ChargeLimits.words(Int64(InputLimits.textBytes))) bytes)"
            ),
        ],
        positionals: [PositionalSpec(.entryId, help: "the id of the charge to decline (see `credit entries`)")])

    static let topUp = CommandSpec(
        "topup", summary: "top up through the configured store",
        discussion: """
            Tops up through the configured store (see `credit store`). With the simulated store no money is taken
            and the entry reads "Top-up (simulated, no money taken)". With the mock store the signed transaction is
            verified, recorded in the ledger, and only then finished. If the finish fails, the top-up still stands
            (exit 0) and the next collect finishes it. If the purchase gets no answer, it may have gone through
            (exit 1): `credit collect` or the credit screen credits it then, once.
            """,
        options: [.string(.product, "ID", help: "the pack to buy (default: the £5.00 pack)")])

    static let collect = CommandSpec(
        "collect", summary: "collect purchases the store holds unfinished, and updates",
        discussion: """
            Collects what the store holds for this app: unfinished purchases (verified, recorded once, finished),
            and updates made outside a purchase (an approved Ask to Buy, a refund). Also done whenever the credit
            screen opens.
            """)

    static let takings = CommandSpec(
        "takings", summary: "takings by feature: the P&L of every feature",
        discussion: """
            Takings by feature: how many charges and how much, how many declined and what was given back, and the
            net. Over all time, or the last 7 or 30 days.
            --json: [{"feature","charges","charged","declined","givenBack","net"}] (amounts in micro-credits).
            """,
        options: [.choice(.days, ["7", "30"], help: "the last 7 or 30 days only")])

    static let entries = CommandSpec(
        "entries", summary: "every entry, newest first, with the balance after it",
        discussion: "Every entry, newest first, with the balance after it. --json prints an array.")

    static let prices = CommandSpec(
        "prices", summary: "the price list (placeholders)", discussion: "The price list. Every price is a placeholder.")

    static let run = CommandSpec(
        "run", summary: "a sequence of acts, one per line, in one app session",
        discussion: """
            Charges a sequence of acts, one per line, in the same words as `credit charge` (the word `charge` may be
            left out), as one app session: a note read twice is charged once. Blank lines and lines starting with #
            are skipped. Every line is checked before anything is charged: a line that is wrong (readNote without
            --subject, say) charges nothing at all, and names the line.
            """,
        positionals: [PositionalSpec(.fileOrStdin, help: "a file of acts, or - for standard input")])

    static let verify = CommandSpec(
        "verify", summary: "check the signed ledger, its heads and its receipts",
        discussion: """
            Checks every device's chain of MACs, every signed head, that no id is duplicated with other content and
            no (device, sequence) is forked, and that every top-up's stored receipt carries a valid store signature
            for the product and amount it credits. Exit 0 when all holds, 1 when anything is wrong.
            """,
        positionals: [
            PositionalSpec(
                .file, help: "ledger files to check instead of the data directory's", optional: true, repeating: true)
        ])

    static let upgrade = CommandSpec(
        "upgrade", summary: "sign a ledger made before signing existed",
        discussion: """
            Signs a ledger made before signing existed: every entry is rewritten, byte for byte the same content,
            with its MAC chain, into a new file that replaces the old one atomically. The old file is kept beside it.
            Says what it did. A signed ledger is left alone.
            """)

    static let store = CommandSpec(
        "store", summary: "show or choose the store (simulated, or the mock store)",
        discussion: """
            Shows or chooses the store top-ups go through. The choice is kept in the data directory.
            The mock store needs exactly one of --root-certificate, which pins its test root (DER or PEM) for ES256
            receipts, and --secret-file, which holds the shared secret for HS256 receipts. Its receipts must come
            from one environment, Sandbox unless --environment says production: any other is never credited.
            """,
        runsWithoutSubcommand: true, subcommandNoun: "store command", usageListsSubcommands: true)

    /// `credit store use`: groups the stores (its subcommands are set where they are run, ``CreditCommands``).
    static let storeUse = CommandSpec("use", summary: "choose the store", subcommandNoun: "store")

    static let useSimulated = CommandSpec("simulated", summary: "the simulated store: no money is taken")

    static let useMockStore = CommandSpec(
        "mockstore", summary: "the mock store (a sandbox for test purchases)",
        options: [
            .string(.url, "URL", help: "the mock store's listening URL").required(),
            .string(.rootCertificate, "FILE", help: "its test root (DER or PEM), for ES256"),
            .string(.secretFile, "FILE", help: "the shared secret, for HS256"),
            .string(.bundleId, "ID", help: "the app's bundle id in its receipts"),
            .choice(
                .environment, ["sandbox", "production"],
                help: "the one environment its receipts must come from (default sandbox)"),
        ])

    static let pnl = CommandSpec(
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
        options: [
            .choice(.days, ["7", "30"], help: "the table of the last 7 or 30 days only (from midnight UTC)"),
            .string(.summaries, "DIR", help: "the P&L of all accounts, from the summaries in DIR"),
        ])

    static let report = CommandSpec(
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
        options: [
            .string(.out, "FILE", help: "where to write it (default: credit-report.html here)"),
            .string(.summaries, "DIR", help: "the page of all accounts, from the summaries in DIR"),
        ])

    static let export = CommandSpec(
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
        options: [.string(.summary, "FILE", help: "where to write the summary").required()])
}
