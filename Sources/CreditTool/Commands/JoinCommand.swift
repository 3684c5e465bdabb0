import OptionParsing

/// `credit join DIR`: this new data directory becomes another device of an account.
struct JoinCommand: CreditCommand {
    static let account = Argument.word(.dir, help: "the account's data directory (another device's)")

    static let configuration = CommandSpec(
        "join", summary: "make this new data directory another device of an account",
        discussion: """
            On a new data directory: becomes another device of the account whose data directory is DIR (a synced
            vault folder, a copy). Its keys (kept 0600) and every ledger file and head are taken, after each verifies
            under those keys; this device gets its own id and writes no opening, so the balance is the account's.
            Refused (exit 1, nothing written) when this data directory already has a ledger. --json prints
            {"device", "devices", "entries", "heads", "balance"}.
            """,
        positionals: [account.spec])

    /// The account's data directory (another device's).
    let account: String

    init(_ arguments: ParsedArguments) throws(UsageError) { account = try arguments.value(of: Self.account) }

    func run(_ context: Context) throws -> Int32 { try AccountCommands.join(account, context) }
}
