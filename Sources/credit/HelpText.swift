/// The words of `--help`, for the whole command and each subcommand.
enum HelpText {
    static let overview = """
        credit: the VoiceDebrief credit, in a terminal.

        Usage: credit [--data-dir DIR] COMMAND [OPTIONS] [--json]

        The balance starts at £5.00, counts down as the app is used, may go below zero, and never blocks anything.

        Commands:
          screen            the credit screen (the default when no command is given)
          balance           the counter: the balance
          charge KEY        charge one act (see `credit prices` for the keys)
          decline ID        decline a charge: it is given back as a new entry
          topup             top up through the configured store
          collect           collect purchases the store holds unfinished, and updates
          takings           takings by feature: the P&L of every feature
          entries           every entry, newest first, with the balance after it
          prices            the price list (placeholders)
          merge FILE...     merge other devices' ledger files into this data directory
          run FILE|-        a sequence of acts, one per line, in one app session
          verify [FILE...]  check the signed ledger, its heads and its receipts
          upgrade           sign a ledger made before signing existed
          store             show or choose the store (simulated, or the mock store)

        Options for every command:
          --data-dir DIR    the data directory (default: $CREDIT_DATA_DIR, else $XDG_DATA_HOME/voicedebrief,
                            else ~/.local/share/voicedebrief)
          --json            output for scripts
          --help            help for the command

        Exit status: 0 done; 1 failed (the message says why); 64 the command line is wrong.
        Colour is used only on a terminal, and never when NO_COLOR is set.
        """

    static let commands: [String: String] = [
        "screen": """
        Usage: credit [--data-dir DIR] screen [--json]

        The credit screen: the balance, what was used and topped up, the top-up on offer, takings by feature,
        every entry newest first with the balance after it, and the price list. Opening it first collects any
        purchase the store holds unfinished.
        """,
        "balance": """
        Usage: credit balance [--json]

        The counter: the balance. --json prints {"balance": <micro-credits>, "formatted": "£4.94"}.
        """,
        "charge": """
        Usage: credit charge KEY [--seconds S] [--quantity N] [--subject ID] [--auto-open] [--json]

        Charges one act that has been done. KEY is a key from `credit prices`.
          --seconds S     length of the audio, for a transcript (3p a started minute)
          --quantity N    files saved (1 to 4), or things moved by a push or pull (0 moves nothing: no charge)
          --subject ID    the note or vault it was for
          --auto-open     the note opened by itself when a recording stopped: not charged
        Recording and the other uncharged acts are refused: they are never charged.
        --json prints the entry written (with "id", "amount", "balanceAfter"), or {"charged": false, "reason"}.
        """,
        "decline": """
        Usage: credit decline ENTRY-ID --reason not-usable|not-needed|test|other [--text T] [--json]

        Declines a charge: its amount is given back as a new refund entry; the charge stays in the ledger.
        A charge can be declined once. --reason other needs --text with your words.
        """,
        "topup": """
        Usage: credit topup [--product ID] [--json]

        Tops up through the configured store (see `credit store`). With the simulated store no money is taken
        and the entry reads "Top-up (simulated, no money taken)". With the mock store the signed transaction is
        verified, recorded in the ledger, and only then finished.
        """,
        "collect": """
        Usage: credit collect [--json]

        Collects what the store holds for this app: unfinished purchases (verified, recorded once, finished),
        and updates made outside a purchase (an approved Ask to Buy, a refund). Also done whenever the credit
        screen opens.
        """,
        "takings": """
        Usage: credit takings [--days 7|30] [--json]

        Takings by feature: how many charges and how much, how many declined and what was given back, and the
        net. Over all time, or the last 7 or 30 days.
        --json: [{"feature","charges","charged","declined","givenBack","net"}] (amounts in micro-credits).
        """,
        "entries": """
        Usage: credit entries [--json]

        Every entry, newest first, with the balance after it. --json prints an array.
        """,
        "prices": """
        Usage: credit prices [--json]

        The price list. Every price is a placeholder.
        """,
        "merge": """
        Usage: credit merge FILE... [--json]

        Merges other devices' ledger files into this data directory: every entry is taken once. A fork, a
        conflict or a gap is reported (exit 1) and that device's later entries are left out; nothing is lost.
        """,
        "run": """
        Usage: credit run FILE|- [--json]

        Charges a sequence of acts, one per line, in the same words as `credit charge` (the word `charge` may be
        left out), as one app session: a note read twice is charged once. Blank lines and lines starting with #
        are skipped. Every line is checked before anything is charged.
        """,
        "verify": """
        Usage: credit verify [FILE...] [--json]

        Checks every device's chain of MACs, every signed head, that no id is duplicated with other content and
        no (device, sequence) is forked, and that every top-up's stored receipt carries a valid store signature
        for the product and amount it credits. With FILEs, checks those ledger files instead of the data
        directory's. Exit 0 when all holds, 1 when anything is wrong.
        """,
        "upgrade": """
        Usage: credit upgrade [--json]

        Signs a ledger made before signing existed: every entry is rewritten, byte for byte the same content,
        with its MAC chain, into a new file that replaces the old one atomically. The old file is kept beside it.
        Says what it did. A signed ledger is left alone.
        """,
        "store": """
        Usage: credit store [--json]
               credit store use simulated
               credit store use mockstore --url URL (--root-certificate FILE | --secret-file FILE)
                                          [--bundle-id ID]

        Shows or chooses the store top-ups go through. The choice is kept in the data directory.
        --root-certificate pins the mock store's test root (DER or PEM) for ES256 receipts; --secret-file holds
        the shared secret for HS256 receipts.
        """,
    ]
}
